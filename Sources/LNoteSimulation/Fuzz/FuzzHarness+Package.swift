#if canImport(Dispatch)
import Dispatch
#endif
import LNoteFormat
import LNoteStore
import Synchronization

extension FuzzHarness {
    static let packagePages = "/doc/pages"
    static let packagePageID = UUIDBytes(storage: (0x6F1C_2A8E_0B7D_4D7E, 0x9A51_2C4B_8E0F_3A11))

    /// Open-plus-fsck of a mutated valid package. Input: a mutation script (see `FuzzMutation`)
    /// applied to a valid page (a snapshot of generation 1 and a journal holding later changes).
    /// Invariants: recovery never traps; salvage never refuses; every mode's findings are
    /// reported (recovery in salvage mode run twice gives the same page and report); recovery
    /// ready to draw gives the deferred page, report and points (`drawAtOpenDiffers`); the page
    /// then opens for writing, takes a change and closes, and reopening shows exactly the salvaged
    /// page plus that change.
    /// E-006's one pass (`PageOptions.pointsToDrawAtOpen`): the open ready to draw, on one
    /// thread and with the decode ahead on a second (whatever the page's size), gives the
    /// deferred open's page and report,
    /// and when it has the points, those `PagePoints(decoding:)` gives.
    static func drawAtOpenDiffers(_ fs: any FileSystem) -> String? {
        guard
            let lazy = try? PageRecovery.recover(
                fs: fs, directory: packagePages, pageID: packagePageID, mode: .salvage,
                points: .deferred)
        else { return "deferred salvage recovery threw" }
        let expected = PagePoints(decoding: lazy.state.elements)
        for threads in [1, 2] {
            guard
                let fast = try? PageRecovery.recover(
                    fs: fs, directory: packagePages, pageID: packagePageID, mode: .salvage,
                    points: .deferred, toDraw: true, threads: threads,
                    aheadBytesMin: 0)
            else {
                return "recovery ready to draw threw (\(threads) threads)"
            }
            if fast.state != lazy.state || fast.report != lazy.report {
                return "recovery ready to draw differs from the deferred one (\(threads) threads)"
            }
            if let drawn = fast.drawn,
                drawn.points != expected.points || drawn.damaged != expected.damaged
                    || !(0..<drawn.count).allSatisfy({ drawn.range(ofElement: $0) == expected.range(ofElement: $0) })
            {
                return "points drawn at open differ from PagePoints(decoding:) (\(threads) threads)"
            }
        }
        return nil
    }

    package static func packageOpen(_ data: [UInt8]) async -> String? {
        let fs = FuzzPackage.make()
        FuzzMutation.apply(data, to: fs, directory: packagePages)
        let salvaged: PageRecovery.Result
        do {
            // As the engine's open reads it: a damaged snapshot healed from its retained journal (P-041).
            salvaged = try PageRecovery.recover(
                fs: fs, directory: packagePages, pageID: packagePageID, mode: .salvage, heal: true)
        } catch {
            return "salvage recovery threw \(error)"
        }
        if let again = try? PageRecovery.recover(
            fs: fs, directory: packagePages, pageID: packagePageID, mode: .salvage, heal: true),
            again.state != salvaged.state || again.report != salvaged.report
        {
            return "salvage recovery is not deterministic"
        }
        if let failure = drawAtOpenDiffers(fs) { return failure }
        for mode in [ReplayMode.prefix, .strict] {
            _ = try? PageRecovery.recover(fs: fs, directory: packagePages, pageID: packagePageID, mode: mode)
        }
        let extra = Element.stroke(
            Stroke(
                id: UUIDBytes(storage: (0xFEED, 0xF00D)), ink: .pen,
                points: [Point(x: 1, y: 2, radius: 3, pressure: 4, time: 0)]))
        var expected = salvaged.state
        expected.apply(.append(extra))
        do {
            let page = try await Page.open(
                directory: packagePages, id: packagePageID,
                options: PageOptions(compaction: .onCloseOnly), fileSystem: fs)
            if await page.state != salvaged.state { return "the opened page differs from salvage recovery" }
            // A page whose damaged files exhaust its sequence or generation numbers refuses with
            // `.corrupt` (a clear error, nothing written); anything else must be accepted.
            var appended = salvaged.state.contains(extra.key)
            do {
                if !appended { try await page.append(extra) }
                appended = true
            } catch let e as LNoteError where e.code == .corrupt {}
            do { try await page.close() } catch let e as LNoteError where e.code == .corrupt {}
            let reopened = try await Page.open(directory: packagePages, id: packagePageID, fileSystem: fs)
            let seen = await reopened.state
            try? await reopened.close()
            let want = appended ? expected : salvaged.state
            if seen != want {
                return "after open, append, close: \(seen.elements.count) elements, expected \(want.elements.count)"
            }
        } catch {
            return "writing to the salvaged page threw \(error)"
        }
        return nil
    }

    /// `packageOpen` for callers outside Swift concurrency (the libFuzzer entry point): blocks
    /// the calling thread until it finishes. Never call it from a task.
    package static func packageOpenSync(_ data: [UInt8]) -> String? {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task.detached {
            box.set(await packageOpen(data))
            done.signal()
        }
        done.wait()
        return box.get()
    }
}

/// Carries a harness result out of a task (written once, read after the semaphore).
final class ResultBox: @unchecked Sendable {
    private var value: String?
    private let lock = Mutex(())
    func set(_ v: String?) { lock.withLock { _ in value = v } }
    func get() -> String? { lock.withLock { _ in value } }
}

/// The valid page every `package-open` input mutates: built once, copied per input.
enum FuzzPackage {
    static let template: CrashState = build()

    static func make() -> SimulatedFileSystem { template.makeFileSystem() }

    private static func build() -> CrashState {
        let fs = SimulatedFileSystem()
        let dir = FuzzHarness.packagePages
        let id = FuzzHarness.packagePageID
        let elements = FuzzSeeds.elements()
        var state = PageState()
        for e in elements.prefix(3) { state.apply(.append(e)) }
        do {
            try fs.makeDirectory("/doc")
            try fs.makeDirectory(dir)
            let snapshot = SnapshotFile.encode(pageID: id, generation: 1, nextSequence: 4, state: state, salt: 0x5A17)
            try fs.writeFileAtomically(joinPath(dir, PageFileNames.snapshot(id)), snapshot)
            let header = JournalHeader(pageID: id, baseGeneration: 1, salt: 0x7E57, firstSequence: 4)
            var journal = header.encoded()
            var sequence: UInt64 = 4
            let changes: [PageChange] = [
                .append(elements[3]),
                .transform([(elements[0].key, .translation(5, 6))]),
                .replace(target: elements[1].key, fragments: [elements[4]]),
                .delete([elements[2].key]),
                .reorder(index: 0, ids: [elements[3].key]),
                .metadata(PageMetadata(width: 5950, height: 8420))
            ]
            for change in changes {
                let (type, body) = PageChangeCodec.encode(change)
                FrameCodec.append(type: type.rawValue, sequence: sequence, body: body, salt: header.salt, to: &journal)
                sequence += 1
            }
            let path = joinPath(dir, PageFileNames.journal(id, base: 1))
            let f = try fs.open(path, [.create])
            try journal.withUnsafeBytes { try fs.write(f, at: 0, $0) }
            try fs.close(f)
        } catch {
            // The template is built from constants on an empty simulated file system.
        }
        return fs.processCrashState()
    }
}

/// Turns fuzzer bytes into damage on a package's page files.
///
/// Commands of 3+ bytes: `c` picks the file (`c % files`) and the action (`c >> 5`):
/// 0-2 xor a byte (`offset16`, then the mask), 3 truncate at `offset16 % (size + 1)`,
/// 4 overwrite a run of up to 16 following bytes, 5 zero 512 bytes at a sector, 6 fix the
/// file's checksums (so damage behind them is reached), 7 remove the file.
enum FuzzMutation {
    static func apply(_ script: [UInt8], to fs: SimulatedFileSystem, directory: String) {
        guard let names = try? fs.list(directory), !names.isEmpty else { return }
        var files: [String: [UInt8]] = [:]
        for name in names { files[name] = (try? fs.readFile(joinPath(directory, name))) ?? [] }
        var removed = Set<String>()
        var i = 0
        while i + 3 <= script.count {
            let c = script[i]
            let name = names[Int(c) % names.count]
            var bytes = files[name] ?? []
            let offset16 = Int(script[i + 1]) | Int(script[i + 2]) << 8
            i += 3
            switch c >> 5 {
            case 0, 1, 2:
                guard i < script.count else { break }
                if !bytes.isEmpty { bytes[offset16 % bytes.count] ^= script[i] }
                i += 1
            case 3:
                bytes = Array(bytes.prefix(offset16 % (bytes.count + 1)))
            case 4:
                let run = min(16, script.count - i)
                for k in 0..<run where !bytes.isEmpty { bytes[(offset16 + k) % bytes.count] = script[i + k] }
                i += run
            case 5:
                let start = (offset16 % 8) * 512
                if start < bytes.count { for k in start..<min(bytes.count, start + 512) { bytes[k] = 0 } }
            case 6:
                FuzzBytes.fixChecksums(&bytes)
            default:
                removed.insert(name)
            }
            files[name] = bytes
        }
        for name in names {
            let path = joinPath(directory, name)
            if removed.contains(name) {
                try? fs.remove(path)
                continue
            }
            guard let bytes = files[name], let f = try? fs.open(path, [.truncate]) else { continue }
            _ = try? bytes.withUnsafeBytes { try fs.write(f, at: 0, $0) }
            try? fs.close(f)
        }
    }
}
