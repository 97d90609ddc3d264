import LNoteCheck
import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync

/// A small deterministic generator (SplitMix64) for the scenarios.
struct ScenarioRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func chance(_ p: Double) -> Bool { Double(next() >> 11) / Double(1 << 53) < p }
    mutating func id() -> UUIDBytes {
        var b = [UInt8](repeating: 0, count: 16)
        for i in 0..<16 { b[i] = UInt8(truncatingIfNeeded: next()) }
        b[6] = (b[6] & 0x0F) | 0x40; b[8] = (b[8] & 0x3F) | 0x80
        return UUIDBytes(bytes: b) ?? UUIDBytes(bytes: [UInt8](repeating: 1, count: 16))!
    }
}

/// One device: its own in-memory file system holding a copy of the library folder.
final class Device: @unchecked Sendable {
    let name: String
    let fs = SimulatedFileSystem()
    init(name: String) { self.name = name }

    /// Engine files of the package, path -> bytes, without what a sync client skips (Y-040).
    func syncedFiles(under root: String) -> [String: [UInt8]] {
        fs.allFiles().filter { path, _ in path.hasPrefix(root + "/") && SyncRules.synced(path) }
    }

    func put(_ path: String, _ bytes: [UInt8]?) throws {
        guard let bytes else { try? fs.remove(path); return }
        var dir = ""
        for part in parentDirectory(of: path).split(separator: "/") {
            dir += "/" + part
            if try fs.kind(dir) == nil { try fs.makeDirectory(dir) }
        }
        try fs.writeFileAtomically(path, bytes, durability: .none)
    }
}

/// What a sync client copies (Spec/sync.md Y-040, Y-041): not `.lock`, temp files, staging
/// folders, nor this device's lost+found/.
enum SyncRules {
    static func synced(_ path: String) -> Bool {
        let parts = path.split(separator: "/")
        guard let last = parts.last else { return false }
        if last == ".lock" || last.hasSuffix(".tmp") { return false }
        if parts.contains(where: {
            $0.hasSuffix(".lnote-creating") || $0.hasSuffix(".lnote-deleting") || $0 == "lost+found"
        }) {
            return false
        }
        return true
    }

    /// `<stem>.sync-conflict-<date>-<time>-<device>.<ext>`, as Syncthing names the losing copy.
    static func conflictName(_ path: String, device: String, n: Int) -> String {
        let dir = parentDirectory(of: path)
        let name = String(path.split(separator: "/").last ?? "")
        let dot = name.lastIndex(of: ".") ?? name.endIndex
        let stem = name[..<dot], ext = name[dot...]
        let time = String(100000 + n % 900000)
        return joinPath(dir, "\(stem).sync-conflict-20261201-\(time)-\(device)\(ext)")
    }
}

/// A file-by-file sync of one folder between two devices, like Syncthing's: per file, a side
/// that changed since the last sync wins over one that did not; modification wins over
/// deletion; both changed is a conflict (the loser's bytes become a conflict copy on both).
struct FilePairSync {
    let root: String
    var base: [String: [UInt8]] = [:]
    var conflicts = 0
    /// What each sync moved, when tracing (debugging aid).
    var log: [String]? = nil

    init(root: String, base: [String: [UInt8]] = [:]) { self.root = root; self.base = base }

    /// Syncs the files in a random order; with `fraction < 1` only that share of the changed
    /// files transfer (a half-synced moment).
    mutating func sync(_ a: Device, _ b: Device, rng: inout ScenarioRandom, fraction: Double = 1) throws {
        let fa = a.syncedFiles(under: root), fb = b.syncedFiles(under: root)
        var paths = Array(Set(fa.keys).union(fb.keys).union(base.keys)).sorted()
        paths.shuffle(using: &rng)
        for p in paths {
            let va = fa[p], vb = fb[p], old = base[p]
            if va == vb { base[p] = va; continue }
            if fraction < 1, !rng.chance(fraction) { continue }
            let aChanged = va != old, bChanged = vb != old
            let short = String(p.split(separator: "/").last ?? "").replacingOccurrences(
                of: ".sync-conflict-20261201", with: "~")
            if aChanged && !bChanged {
                log?.append("  A->B \(short)\(va == nil ? " (del)" : "")"); try b.put(p, va); base[p] = va; continue
            }
            if bChanged && !aChanged {
                log?.append("  B->A \(short)\(vb == nil ? " (del)" : "")"); try a.put(p, vb); base[p] = vb; continue
            }
            // Both changed: modification wins over deletion, else a conflict copy of the loser.
            guard let va else {
                log?.append("  B->A \(short) (mod over del)"); try a.put(p, vb); base[p] = vb; continue
            }
            guard let vb else {
                log?.append("  A->B \(short) (mod over del)"); try b.put(p, va); base[p] = va; continue
            }
            let aWins = rng.chance(0.5)
            let (winner, loser, loserName) = aWins ? (va, vb, b.name) : (vb, va, a.name)
            conflicts += 1
            let copy = SyncRules.conflictName(p, device: loserName, n: conflicts)
            log?.append("  conflict \(short): winner \(aWins ? "A" : "B")")
            for d in [a, b] { try d.put(p, winner); try d.put(copy, loser) }
            base[p] = winner; base[copy] = loser
        }
    }
}
