import LNoteFormat
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// The open's inspection reads `pages/` unordered and sorts only each page's few names: what it
/// finds must be exactly what the sorted listing gives.
@Suite("Package inspection of pages/")
struct PackageInspectionOrderTests {
    @Test("D-002 D-060 P-024 each page's names and the unlisted names are those of the sorted listing, in its order")
    func unorderedListingGivesTheSortedResult() throws {
        let folder = TemporaryFolder("inspection-order")
        defer { folder.remove() }
        let fs = POSIXFileSystem.shared
        let layout = PackageLayout(root: folder.sub("doc.lnote"))
        try fs.makeDirectory(layout.pagesDirectory)
        var listed = Set<UUIDBytes>()
        var unlisted: [UUIDBytes] = []
        for k in 0..<60 {
            let id = UUIDBytes.random()
            if k % 5 == 4 { unlisted.append(id) } else { listed.insert(id) }
            var names = [PageFileNames.snapshot(id), PageFileNames.journal(id, base: UInt64(k % 3))]
            if k % 3 == 0 { names.append(PageFileNames.journal(id, base: 10)) }
            if k % 7 == 0 { names.append(id.description.uppercased() + ".content") }  // P-024: any case
            if k % 11 == 0 { names.append(PageFileNames.snapshotTemp(id)) }
            for name in names {
                try fs.writeFileAtomically(joinPath(layout.pagesDirectory, name), [1], durability: .none)
            }
        }
        try fs.writeFileAtomically(joinPath(layout.pagesDirectory, "notes.txt"), [1], durability: .none)
        let inspection = try PackageInspection.inspect(fs: fs, layout: layout, listed: listed)

        let sorted = try fs.list(layout.pagesDirectory)
        let expected = PackageInspection.namesByPage(sorted).filter { listed.contains($0.key) }
        #expect(inspection.pageFiles == expected)
        #expect(inspection.pageFiles.values.contains { $0.count == 4 })
        let expectedUnlisted = sorted.filter { name in
            guard let id = PackageInspection.pageID(ofFileNamed: name) else { return false }
            return !listed.contains(id)
        }
        #expect(inspection.unlisted == expectedUnlisted)
        #expect(!inspection.unlisted.isEmpty)
    }

    @Test(
        "D-002 D-092 P-024 a reader's ungrouped listing gives each page the names the writer's inspection gives, first page by one pass, the others grouped"
    )
    func readerListingGivesTheSameNames() throws {
        let folder = TemporaryFolder("inspection-reader")
        defer { folder.remove() }
        let fs = POSIXFileSystem.shared
        let layout = PackageLayout(root: folder.sub("doc.lnote"))
        try fs.makeDirectory(layout.pagesDirectory)
        var ids: [UUIDBytes] = []
        for k in 0..<40 {
            let id = UUIDBytes.random()
            ids.append(id)
            var names = [PageFileNames.snapshot(id), PageFileNames.journal(id, base: UInt64(k % 3))]
            if k % 3 == 0 { names.append(id.description.uppercased() + ".\(k % 3).journal") }  // P-024
            if k % 4 == 0 { names.append(".\(PageFileNames.journal(id, base: 7)).icloud") }  // D-092
            if k % 5 == 0 { names.append(PageFileNames.snapshotTemp(id)) }
            if k % 6 == 0 { names.append(id.description + ".junk") }  // starts like the id, not its file
            for name in names {
                try fs.writeFileAtomically(joinPath(layout.pagesDirectory, name), [1], durability: .none)
            }
        }
        try fs.writeFileAtomically(joinPath(layout.pagesDirectory, "notes.txt"), [1], durability: .none)
        let expected = try PackageInspection.inspect(fs: fs, layout: layout, listed: Set(ids)).pageFiles
        let reading = try PackageInspection.inspectForReading(fs: fs, layout: layout)
        let all = try #require(reading.ungroupedNames)
        #expect(reading.hasPagesFolder && reading.unlisted.isEmpty && reading.pageFiles.isEmpty)
        for first in [ids[0], ids[3], ids[4], ids[12]] {
            var listing = PageListing(listed: all)
            #expect(listing.names(of: first) == expected[first], "the first page asked for, by one pass")
            #expect(listing.names(of: first) == expected[first], "asked again")
            for id in ids { #expect(listing.names(of: id) == (expected[id] ?? []), "grouped: \(id)") }
        }
        #expect(expected.values.contains { $0.count == 5 }, "a page with every kind of name")
        var none = PageListing(listed: [])
        #expect(none.names(of: ids[0]).isEmpty)
    }
}
