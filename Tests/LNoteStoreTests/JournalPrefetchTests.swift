#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore

/// `JournalPrefetch`: an open ready to draw on two threads reads and scans the page's journals
/// on the decode thread while it reads the snapshot. The replay takes each read where it would
/// have made it, so the page, the findings and the errors are those of the open that reads
/// every file itself, in order, whatever the journals are: several, retained, ahead, damaged,
/// unreadable, listed but gone.
@Suite("Journals read ahead")
struct JournalPrefetchTests {
    /// Records which thread opened each file and fails the opens of `failing` paths.
    final class TracingFileSystem: ForwardingFileSystem, Sendable {
        let base: SimulatedFileSystem
        let failing: [String: Int32]
        let extraNames: [String]
        let opens = Mutex<[(path: String, thread: UInt)]>([])

        init(_ base: SimulatedFileSystem, failing: [String: Int32] = [:], extraNames: [String] = []) {
            self.base = base; self.failing = failing; self.extraNames = extraNames
        }

        func open(_ path: String, _ options: OpenOptions) throws -> FileHandleNumber {
            opens.withLock { $0.append((path, currentThreadID())) }
            if let code = failing[path] { throw FileSystemError("open", path: path, errno: code) }
            return try base.open(path, options)
        }

        func list(_ path: String) throws -> [String] { try base.list(path) + extraNames }
    }

    let pageID = DrawAtOpenTests().pageID

    /// The outcome of a recovery, or the error it threw, as text to compare.
    func outcome(_ fs: any FileSystem, threads: Int) -> String {
        do {
            let r = try PageRecovery.recover(
                fs: fs, directory: "/pages", pageID: pageID, mode: .salvage, points: .deferred,
                toDraw: true, threads: threads, aheadBytesMin: 0)
            let drawn =
                r.drawn.map { "\($0.points.count) points, damaged \($0.damaged.map(\.element))" } ?? "read again"
            return "\(r.state.elements.map(\.key)) \(r.report) gen \(r.generation) next \(r.nextSequence) "
                + "append \(r.appendTarget.map { "\($0.name) \($0.validEnd) \($0.frameCount)" } ?? "none") "
                + "retained \(r.retainedJournals) damaged \(r.damagedFiles.sorted()) frames \(r.journalFrames); \(drawn)"
        } catch {
            return "threw \(error)"
        }
    }

    /// A page of `DrawAtOpenTests.writePage` (snapshot or not, one journal), its journal with a
    /// damaged frame for a third of the seeds, plus, for half of them, copies of its journal
    /// (whole, or cut in a frame) under other bases: below the snapshot's generation (retained),
    /// and above.
    func page(seed: UInt64) throws -> (fs: SimulatedFileSystem, journals: [String]) {
        let fs = SimulatedFileSystem()
        try DrawAtOpenTests().writePage(fs, seed: seed)
        let names = try fs.list("/pages").filter { $0.hasSuffix(".journal") }
        var journals = names.map { "/pages/" + $0 }
        if seed % 3 == 1, let first = journals.first {
            // A frame in the middle whose CRC fails: salvage skips it and goes on (J-021).
            var bytes = try fs.readFile(first)
            if bytes.count > 200 { bytes[64 + (bytes.count - 64) * 3 / 5] ^= 0x5A }
            try fs.writeFileAtomically(first, bytes)
        }
        if seed % 2 == 0, let first = journals.first {
            let bytes = try fs.readFile(first)
            for base: UInt64 in [0, 5, 9] where !names.contains(PageFileNames.journal(pageID, base: base)) {
                let path = "/pages/" + PageFileNames.journal(pageID, base: base)
                try fs.writeFileAtomically(path, seed % 4 == 0 ? bytes : Array(bytes.prefix(bytes.count * 2 / 3)))
                journals.append(path)
            }
        }
        return (fs, journals.sorted())
    }

    @Test(
        "P-003 P-017 J-023 pages with one to four journals: the open that reads them ahead gives the page, findings and points of the one that reads them in order, and reads each as often, on the other thread"
    )
    func sameOutcome() throws {
        var readAhead = 0
        for seed in UInt64(0)..<60 {
            let (base, journals) = try page(seed: seed &+ 7_000)
            let plain = TracingFileSystem(base)
            let inOrder = outcome(plain, threads: 1)
            let traced = TracingFileSystem(base)
            #expect(outcome(traced, threads: 2) == inOrder, "seed \(seed)")
            let opens = traced.opens.withLock { $0 }, plainOpens = plain.opens.withLock { $0 }
            let snapshotThread = opens.first { $0.path.hasSuffix(".content") }?.thread ?? opens.first?.thread
            for j in journals {
                // Once, or twice for a page read again with the checks at load (E-006).
                #expect(
                    opens.filter { $0.path == j }.count == plainOpens.filter { $0.path == j }.count,
                    "seed \(seed): \(j)")
                if opens.contains(where: { $0.path == j && $0.thread != snapshotThread }) { readAhead += 1 }
            }
        }
        #expect(readAhead >= 60, "journals read on the decode thread: \(readAhead)")
    }

    @Test(
        "P-003 unreadable journals, an unreadable snapshot, a journal listed but gone: the same error, or the same page, as the open that reads them in order"
    )
    func sameErrors() throws {
        var threw = 0
        for seed in UInt64(0)..<40 {
            let (base, journals) = try page(seed: seed &+ 8_000)
            let snapshot = "/pages/" + PageFileNames.snapshot(pageID)
            let cases: [([String: Int32], [String])] = [
                (Dictionary(uniqueKeysWithValues: journals.prefix(1).map { ($0, FileSystemErrno.ioError) }), []),
                (Dictionary(uniqueKeysWithValues: journals.suffix(1).map { ($0, EACCES) }), []),
                (Dictionary(uniqueKeysWithValues: (journals + [snapshot]).map { ($0, FileSystemErrno.ioError) }), []),
                ([:], [PageFileNames.journal(pageID, base: 7)])
            ]
            for (failing, extra) in cases {
                let inOrder = outcome(TracingFileSystem(base, failing: failing, extraNames: extra), threads: 1)
                let ahead = outcome(TracingFileSystem(base, failing: failing, extraNames: extra), threads: 2)
                #expect(ahead == inOrder, "seed \(seed), failing \(failing.keys.sorted()), extra \(extra)")
                if inOrder.hasPrefix("threw") { threw += 1 }
            }
        }
        #expect(threw >= 80, "errors compared: \(threw)")
    }
}
