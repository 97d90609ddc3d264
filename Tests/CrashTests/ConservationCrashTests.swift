import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// P-040 in the crash-state harness: page files damaged at random (flips, cuts, zeroed
/// ranges) before an everyday run (open, append, erase, flush, close and its compaction), and
/// in every crash state of that run, every byte range that held an acknowledged element before
/// the run is readable on its page (the element, equal), or still present, byte for byte, in
/// a file of the package (where it was, or kept in `lost+found/`).
///
/// Default level: `quickStarts` damaged starting points; `LNOTE_TEST_LEVEL=ci`: `ciStarts`.
@Suite("Conservation of bytes under damage and crashes")
struct ConservationCrashTests {
    static let quickStarts = 8
    static let ciStarts = 200
    static var ci: Bool { CrashScale.environment("LNOTE_TEST_LEVEL") == "ci" }

    /// One element's frame as the base holds it: where, and its bytes after the damage.
    struct Held {
        var element: Element
        var path: String
        var bytes: [UInt8]
    }

    /// A package whose page has a snapshot of six strokes with the journal it absorbed
    /// retained, and an active journal of four more, all durable; and the elements.
    static func base() async throws -> (SimulatedFileSystem, [Element]) {
        let fs = try PageRun.emptyPackage()
        let run = try await PageRun(fs: fs, seed: 0xC0C0)
        for op: PageOp in [
            .append(payload: 150, .data), .append(payload: 300, .data), .insertImage,
            .append(payload: 120, .data), .append(payload: 90, .data), .append(payload: 200, .data), .close,
            .reopen, .append(payload: 110, .data), .append(payload: 260, .data),
            .append(payload: 80, .data), .append(payload: 140, .data)
        ] {
            await run.perform(op)
        }
        guard run.problems.isEmpty, run.firstError == nil, let last = run.history.states.last else {
            throw LNoteError(.io, "base failed: \(run.problems) \(String(describing: run.firstError))")
        }
        return (fs.processCrashState().makeFileSystem(), last.elements)
    }

    /// Where each element's `elementAppend` frame lies in the page's files (snapshot and journals).
    static func frames(in files: [String: [UInt8]], of elements: [Element]) -> [(Element, String, Range<Int>)] {
        let byID = Dictionary(uniqueKeysWithValues: elements.map { ($0.key, $0) })
        var found: [(Element, String, Range<Int>)] = []
        for (path, bytes) in files.sorted(by: { $0.key < $1.key }) where path.hasPrefix(PageRun.directory + "/") {
            let salt: UInt64?
            if path.hasSuffix(".content") {
                salt = bytes.withUnsafeBytes { raw -> UInt64? in
                    if case .valid(let h) = SnapshotHeader.decode(raw) { return h.salt }
                    return nil
                }
            } else {
                salt = bytes.withUnsafeBytes { raw -> UInt64? in
                    if case .valid(let h) = JournalHeader.decode(raw) { return h.salt }
                    return nil
                }
            }
            guard let salt else { continue }
            let scan = FrameScanner.scan(bytes, from: 64, salt: salt, firstSequence: 1, mode: .salvage)
            for frame in scan.acceptedFrames where frame.type == FrameType.elementAppend.rawValue {
                let idAt = frame.bodyRange.lowerBound + 1
                guard idAt + 16 <= bytes.count else { continue }
                if let id = UUIDBytes(bytes: bytes[idAt..<idAt + 16]), let e = byID[id] {
                    found.append((e, path, frame.offset..<frame.endOffset))
                }
            }
        }
        return found
    }

    /// Damages `fs`'s page files at random (1 to 3 damages: flips, a cut, a zeroed range),
    /// durably; returns what was done.
    static func damage(_ fs: SimulatedFileSystem, _ rng: inout SeededGenerator) throws -> [String] {
        var done: [String] = []
        for _ in 0..<Int.random(in: 1...3, using: &rng) {
            let files = fs.allFiles().filter { $0.key.hasPrefix(PageRun.directory + "/") }.sorted { $0.key < $1.key }
            guard let (path, original) = files.randomElement(using: &rng), original.count > 64 else { continue }
            var bytes = original
            switch Int.random(in: 0..<3, using: &rng) {
            case 0:
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                bytes[at] ^= UInt8.random(in: 1...255, using: &rng)
                done.append("flip \(path)@\(at)")
            case 1:
                let at = Int.random(in: 64..<bytes.count, using: &rng)
                bytes.removeSubrange(at...)
                done.append("cut \(path)@\(at)")
            default:
                let at = Int.random(in: 0..<bytes.count, using: &rng)
                let n = min(bytes.count - at, Int.random(in: 1...200, using: &rng))
                for i in at..<at + n { bytes[i] = 0 }
                done.append("zero \(path)@\(at)+\(n)")
            }
            try fs.writeFileAtomically(path, bytes, durability: .data)
        }
        return done
    }

    /// Whether `needle` occurs in `haystack`.
    static func contains(_ haystack: [UInt8], _ needle: [UInt8]) -> Bool {
        guard !needle.isEmpty, haystack.count >= needle.count else { return needle.isEmpty }
        let first = needle[0]
        var i = 0
        while i <= haystack.count - needle.count {
            if haystack[i] == first, haystack[i..<i + needle.count].elementsEqual(needle) { return true }
            i += 1
        }
        return false
    }

    /// P-040 in one state: each held range is readable (its element, equal, on the page the
    /// engine's open shows), or its bytes are in a file of the package. Nil, or the problem.
    static func conserved(_ state: CrashState, held: [Held], erased: Set<UUIDBytes>) -> String? {
        let files = state.files
        let fs = state.makeFileSystem()
        guard
            let page = try? PageRecovery.recover(
                fs: fs, directory: PageRun.directory, pageID: PageRun.pageID,
                mode: .salvage, heal: true)
        else {
            return "recovery threw"
        }
        let package = files.filter { $0.key.hasPrefix(PageRun.packageDirectory + "/") }.map(\.value)
        for h in held where !erased.contains(h.element.key) {
            if page.state.element(h.element.key) == h.element { continue }
            if package.contains(where: { contains($0, h.bytes) }) { continue }
            return
                "element \(h.element.key) (\(h.bytes.count) bytes of \(h.path)) is neither on the page nor in any file"
        }
        return nil
    }

    @Test(
        "P-040 P-042 damaged page files, then open, append, erase, flush, close: in every crash state every byte range that held an acknowledged element is readable on its page or kept"
    )
    func everyCrashStateConserves() async throws {
        let (template, elements) = try await Self.base()
        let baseImage = template.processCrashState()
        let starts = Self.ci ? Self.ciStarts : Self.quickStarts
        var rng = SeededGenerator(seed: 0xC025_E2FE)
        var (states, violations, kept, damaged) = (0, [String](), 0, 0)
        var options = CrashOptions(seed: 0xC0)
        options.tornCutsPerWriteMax = 8
        options.exhaustivePendingMax = 6
        for start in 0..<starts {
            let fs = baseImage.makeFileSystem()
            let what = try Self.damage(fs, &rng)
            let files = fs.allFiles()
            // What each element's frames hold after the damage (nothing for all-zero ranges: no
            // byte of the element is left there).
            var held: [Held] = []
            for (element, path, range) in Self.frames(in: baseImage.files, of: elements) {
                guard let bytes = files[path], range.lowerBound < bytes.count else { continue }
                // Up to the last non-zero byte: zeros after it say nothing a kept copy must hold
                // (a torn tail is kept up to its last non-zero byte, P-042).
                var now = Array(bytes[range.lowerBound..<min(range.upperBound, bytes.count)])
                while now.last == 0 { now.removeLast() }
                if !now.isEmpty { held.append(Held(element: element, path: path, bytes: now)) }
            }
            let run = fs.durableSnapshot().makeFileSystem()
            var erased = Set<UUIDBytes>()
            let context = "start \(start) [\(what.joined(separator: ", "))]"
            do {
                var o = PageOptions(durability: .data, compaction: .onCloseOnly, journalReserveBytes: 1024)
                o.pointDecoding = .deferred
                let page = try await Page.open(
                    directory: PageRun.directory, id: PageRun.pageID, options: o, fileSystem: run)
                if await page.damage != nil { damaged += 1 }
                var factory = ElementFactory(seed: UInt64(start) + 1)
                try await page.append(factory.stroke(payload: 150))
                if let top = await page.elements.last {
                    erased.insert(top.key)
                    try await page.apply([.replace(target: top.key, fragments: [factory.smallStroke()])])
                }
                try await page.flush()
                try await page.append(factory.stroke(payload: 90))
                try await page.close()
                if await page.damageKeptIn != nil { kept += 1 }
            } catch let e as LNoteError where e.code == .corrupt {
                // A damaged page whose files exhaust its numbers refuses clearly; nothing written.
            } catch {
                violations.append("\(context): the run threw \(error)")
            }
            if let problem = Self.conserved(run.processCrashState(), held: held, erased: erased) {
                violations.append("\(context) app crash: \(problem)")
            }
            for state in run.crashStates(options) {
                states += 1
                if let problem = Self.conserved(state, held: held, erased: erased) {
                    violations.append("\(context) \(state): \(problem)")
                    if violations.count > 20 { break }
                }
            }
        }
        print(
            "P-040 conservation: \(starts) damaged starting points (\(damaged) opened with damage, \(kept) kept files in lost+found), "
                + "\(states) crash states, \(violations.count) violations")
        for v in violations.prefix(20) { print("VIOLATION \(v)") }
        #expect(violations.isEmpty)
        #expect(states > starts)
    }
}
