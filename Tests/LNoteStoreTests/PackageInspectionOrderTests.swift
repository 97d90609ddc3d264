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
}
