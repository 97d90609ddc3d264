import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `PageRecovery.pageBytes`, the sizing that decides whether an open ready to draw decodes on a
/// second core while it reads (and the buffer's size): one lstat per file (`FileSystem.kind`),
/// the regular files' sizes summed; nil when a name of the page holds anything else (a link, a
/// folder, a FIFO), where the open then decodes after the read and gives the reference page.
@Suite("Sizing a page's files for the decode ahead (E-006 one pass)")
struct DrawBoundSizingTests {
    let pageID = UUIDBytes(string: "d7a0a7e0-5555-4666-8777-999999999999")!

    @Test(
        "E-006 D-004 the page's regular files are sized by lstat; a link, folder or FIFO at a page name gives nil, and the open ready to draw still equals the reference (or refuses as it does)"
    )
    func sizesRegularFilesOnly() throws {
        let fs = POSIXFileSystem.shared
        let dir = TemporaryFolder("draw-bound")
        defer { dir.remove() }
        let pages = dir.sub("pages")
        let strokes = (0..<40).map { Element.stroke(makeStroke(UInt64($0), points: 30 + $0)) }
        let snapshot = SnapshotFile.encode(
            pageID: pageID, generation: 1, nextSequence: 2,
            state: PageState(metadata: .letter, elements: Array(strokes[..<20])), salt: 7)
        try fs.writeFileAtomically(joinPath(pages, PageFileNames.snapshot(pageID)), snapshot)
        let writer = try JournalWriter.create(
            fs: fs, directory: pages, pageID: pageID, base: 1, firstSequence: 2, durability: .none)
        _ = try writer.append(strokes[20...].map { .append($0) }, durability: .data)
        writer.close()

        func sizes() throws -> Int64 {
            var total: Int64 = 0
            for name in try fs.list(pages) {
                let attributes = try FileManager.default.attributesOfItem(atPath: joinPath(pages, name))
                total += (attributes[.size] as? NSNumber)?.int64Value ?? 0
            }
            return total
        }
        let files = try PageRecovery.listFiles(fs: fs, directory: pages, pageID: pageID)
        #expect(files.snapshot != nil && files.journals.count == 1)
        #expect(PageRecovery.pageBytes(fs: fs, directory: pages, files: files) == (try sizes()))

        // A later journal name holding a link (to a valid journal), a folder, then a FIFO.
        let hostile = joinPath(pages, PageFileNames.journal(pageID, base: 5))
        let target = joinPath(dir.path, "elsewhere.journal")
        try FileManager.default.copyItem(
            atPath: joinPath(pages, PageFileNames.journal(pageID, base: 1)), toPath: target)
        let makers: [(String, () -> Bool)] = [
            ("link", { symlink(target, hostile) == 0 }),
            ("folder", { mkdir(hostile, 0o755) == 0 }),
            ("FIFO", { mkfifo(hostile, 0o644) == 0 })
        ]
        for (what, make) in makers {
            #expect(make(), "\(what) made")
            let files = try PageRecovery.listFiles(fs: fs, directory: pages, pageID: pageID)
            #expect(files.journals.count == 2, "\(what) listed as a journal")
            #expect(PageRecovery.pageBytes(fs: fs, directory: pages, files: files) == nil, "\(what): not sized")
            let reference = Result {
                try PageRecovery.recover(fs: fs, directory: pages, pageID: pageID, mode: .salvage, points: .deferred)
            }
            let fast = Result {
                try PageRecovery.recover(
                    fs: fs, directory: pages, pageID: pageID, mode: .salvage, points: .deferred,
                    toDraw: true, threads: 2)
            }
            switch (reference, fast) {
            case (.success(let reference), .success(let fast)):
                #expect(fast.state == reference.state && fast.report == reference.report, "\(what)")
                if let drawn = fast.drawn {
                    #expect(drawn.points == PagePoints(decoding: reference.state.elements).points, "\(what)")
                }
            case (.failure(let a), .failure(let b)):
                #expect("\(a)" == "\(b)", "\(what): the same refusal (a link inside the package, D-002)")
            default:
                Issue.record("\(what): \(reference) vs \(fast)")
            }
            #expect(unlink(hostile) == 0 || rmdir(hostile) == 0)
        }
    }
}
