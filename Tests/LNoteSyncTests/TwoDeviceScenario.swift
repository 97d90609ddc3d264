import LNoteCheck
import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync
import Foundation

/// One random two-device scenario (Spec/sync.md Y-010 .. Y-016, Y-019, Y-020): both devices
/// write the same page in sessions (append, erase, move, delete, reorder, compact, close),
/// with random sync points, a random per-file sync order and half-synced moments; then both
/// sync, merge and sync until the folder settles, and the result is checked against what
/// each device acknowledged.
struct TwoDeviceScenario {
    struct Outcome: Sendable {
        var lost: [UUIDBytes] = []  // acknowledged, never erased, missing (Y-010)
        var resurrected: [UUIDBytes] = []  // erased, back, with no forkUnknown report (Y-011)
        var returnedReported = 0  // erased, back, with a forkUnknown report (Y-016)
        var diverged = false  // the devices disagree after settling (Y-012)
        var unsettled = false  // copies left after the merge rounds
        var errors: [String] = []  // an open, write or merge that threw
        /// H-022, H-041, H-070: after settling, a listed version that does not rebuild, a
        /// damaged history file, the two devices listing different versions, or the last
        /// version not the page.
        var history: [String] = []
        /// Devices whose history has change frames no start point reaches
        /// (`historyVersionLost`): bounded by the test, not a violation of its own.
        var historyGaps = 0
        var conflicts = 0, forkUnknown = 0, lostAndFound = 0, acknowledged = 0
        /// Y-010, Y-011 (an erased element back with no forkUnknown report), Y-012 and errors: must be zero.
        var violations: Int {
            lost.count + resurrected.count + (diverged ? 1 : 0) + (unsettled ? 1 : 0) + errors.count + history.count
        }
    }

    var rng: ScenarioRandom
    let a = Device(name: "AAAAAAA"), b = Device(name: "BBBBBBB")
    var created: [UUIDBytes: String] = [:]
    var erased = Set<UUIDBytes>()
    var outcome = Outcome()
    var halfSynced: Bool
    /// Events, kept only when LNOTE_SYNC_TRACE names this scenario's seed (debugging aid).
    var trace: [String]? = nil
    static let options: PageOptions = {
        var o = PageOptions(durability: Durability.none, compaction: .onCloseOnly).withSyncMerge
        o.thumbnailsOnClose = false  // derived data; rendering dominated the run time
        return o
    }()

    init(seed: UInt64, halfSynced: Bool = true) {
        rng = ScenarioRandom(seed: seed)
        self.halfSynced = halfSynced
        if ProcessInfo.processInfo.environment["LNOTE_SYNC_TRACE"] == String(seed) { trace = [] }
    }

    mutating func run() async -> Outcome {
        do {
            let doc = try await NoteLibrary(folder: "/lib", fileSystem: a.fs).createDocument(
                title: "shared", pageOptions: Self.options)
            let pageID = await doc.pageKeys[0]
            try await doc.close()
            guard let name = try a.fs.list("/lib").first(where: { $0.hasSuffix(".lnote") }) else { return outcome }
            let root = "/lib/" + name
            var sync = FilePairSync(root: root)
            if trace != nil { sync.log = [] }
            try sync.sync(a, b, rng: &rng)
            for _ in 0..<(1 + Int(rng.next() % 4)) {
                for d in [a, b] where rng.chance(0.85) { await session(d, root: root, page: pageID) }
                let partial = halfSynced && rng.chance(0.3)
                try sync.sync(a, b, rng: &rng, fraction: partial ? 0.5 : 1)
                trace?.append("sync\(partial ? " (partial)" : "")"); trace? += sync.log ?? [];
                if trace != nil { sync.log = [] }
            }
            try await settle(&sync, root: root, page: pageID)
            outcome.conflicts = sync.conflicts
        } catch {
            outcome.errors.append("scenario: \(error)")
        }
        outcome.acknowledged = created.count
        return outcome
    }

    /// One writing session on `d`: open, a few changes, close (which compacts).
    mutating func session(_ d: Device, root: String, page pageID: UUIDBytes) async {
        do {
            trace?.append(
                "\(d.name) open: "
                    + ((try? d.fs.list(root + "/pages")) ?? []).sorted().map { String($0.dropFirst(32)) }.joined(
                        separator: " "))
            let doc = try await Document.open(path: root, pageOptions: Self.options, fileSystem: d.fs)
            if let r = await doc.syncMerge { count(r, on: d) }  // Y-021: the writable open merged
            let page = try await doc.page(id: pageID)
            for _ in 0..<(1 + Int(rng.next() % 6)) { try await change(page, d) }
            try await doc.close()
        } catch {
            outcome.errors.append("\(d.name) session: \(error)")
        }
    }

    /// Adds what a merge (`lnote merge` or a writable open's) reported to the outcome.
    mutating func count(_ r: MergeReport, on d: Device) {
        outcome.forkUnknown += r.forkUnknown.count
        outcome.lostAndFound += r.copies.filter { $0.action == .lostAndFound }.count
        trace?.append("merge \(d.name): " + r.humanText())
    }

    mutating func change(_ page: Page, _ d: Device) async throws {
        let ids = await page.elements.map(\.key)
        let roll = rng.next() % 100
        if ids.isEmpty || roll < 45 {
            let strokes = (0..<(1 + Int(rng.next() % 3))).map { _ in stroke() }
            try await page.append(contentsOf: strokes)
            for s in strokes { created[s.key] = d.name }
            trace?.append("\(d.name) append \(strokes.map { $0.key.description.prefix(4) })")
            return
        }
        let target = ids[Int(rng.next() % UInt64(ids.count))]
        switch roll {
        case 45..<60:
            let fragments = (0..<Int(rng.next() % 3)).map { _ in stroke() }
            try await page.erase(target, replacingWith: fragments)
            erased.insert(target)
            for f in fragments { created[f.key] = d.name }
            trace?.append(
                "\(d.name) replace \(target.description.prefix(4)) by \(fragments.map { $0.key.description.prefix(4) })"
            )
        case 60..<75:
            let t = Transform(a: 1, b: 0, c: 0, d: 1, tx: Float(rng.next() % 500), ty: Float(rng.next() % 500))
            try await page.setTransform(t, for: [target])
        case 75..<85:
            try await page.delete([target]); erased.insert(target)
            trace?.append("\(d.name) delete \(target.description.prefix(4))")
        case 85..<92:
            try await page.reorder([target], to: Int(rng.next() % UInt64(ids.count)))
        default:
            try await page.compact()
            trace?.append("\(d.name) compact")
        }
    }

    /// H-022, H-041, H-070 on the settled folders: each device's history of the page rebuilds
    /// every version it lists, holds no damaged file, lists what the other lists, and its last
    /// version is the page. Also returns how many devices' histories have gaps.
    func historyProblems(pages: String, page pageID: UUIDBytes, live: PageState) throws -> ([String], Int) {
        var problems: [String] = []
        var gaps = 0
        var listings: [[UInt64]] = []
        for d in [a, b] {
            guard try d.fs.kind(pages) == .directory else { continue }
            let h = try PageHistory.load(fs: d.fs, pagesDirectory: pages, pageID: pageID)
            for f in h.findings where f.kind == "historyFileDamaged" {
                problems.append("\(d.name): \(f.kind) \(f.file): \(f.detail)")
            }
            if h.findings.contains(where: { $0.kind == "historyVersionLost" }) { gaps += 1 }
            listings.append(h.versions.map(\.sequence))
            for v in h.versions where (try? h.state(atVersion: v.sequence)) == nil {
                problems.append("\(d.name): version \(v.sequence) is listed but does not rebuild")
            }
            if let last = h.versions.last, (try? h.state(atVersion: last.sequence)) != live {
                problems.append("\(d.name): the last version \(last.sequence) is not the page")
            }
        }
        if listings.count == 2, listings[0] != listings[1] { problems.append("the devices list different versions") }
        return (problems, gaps)
    }

    mutating func stroke() -> Element {
        let x = Int32(rng.next() % 5000), y = Int32(rng.next() % 5000)
        let points = [
            Point(x: x, y: y, radius: 8, pressure: 500, time: 0),
            Point(x: x + 30, y: y + 7, radius: 8, pressure: 520, time: 8)
        ]
        return .stroke(
            Stroke(id: rng.id(), ink: Ink(type: "pen", red: 0, green: 0, blue: 0, width: 10), points: points))
    }

    /// Sync and merge on both sides until no copy is left and both folders hold the same files.
    mutating func settle(_ sync: inout FilePairSync, root: String, page pageID: UUIDBytes) async throws {
        var settled = false
        for _ in 0..<6 {
            try sync.sync(a, b, rng: &rng)
            let copies =
                try SyncMerge.hasConflictCopies(package: root, fileSystem: a.fs)
                || SyncMerge.hasConflictCopies(package: root, fileSystem: b.fs)
            if !copies && a.syncedFiles(under: root) == b.syncedFiles(under: root) { settled = true; break }
            for d in [a, b] {
                trace?.append("settle sync"); trace? += sync.log ?? []; if trace != nil { sync.log = [] }
                count(try await SyncMerge.merge(package: root, fileSystem: d.fs, pageOptions: Self.options), on: d)
                try sync.sync(a, b, rng: &rng)
            }
        }
        outcome.unsettled = !settled
        let pages = root + "/pages"
        // The simulated client copies files, not empty folders: no pages/ yet is an empty page (P-001).
        let state = { (d: Device) throws -> PageState in
            guard try d.fs.kind(pages) == .directory else { return PageState() }
            return try PageRecovery.recover(fs: d.fs, directory: pages, pageID: pageID, mode: .salvage).state
        }
        let sa = try state(a), sb = try state(b)
        outcome.diverged = sa != sb
        (outcome.history, outcome.historyGaps) = try historyProblems(pages: pages, page: pageID, live: sa)
        let present = Set(sa.elements.map(\.key))
        outcome.lost = created.keys.filter { !erased.contains($0) && !present.contains($0) }
        let back = erased.filter { present.contains($0) }
        if outcome.forkUnknown == 0 { outcome.resurrected = Array(back) } else { outcome.returnedReported = back.count }
        if let trace {
            print(trace.joined(separator: "\n"))
            print("returned: \(back.map { $0.description.prefix(4) }), forkUnknown \(outcome.forkUnknown)")
        }
    }
}
