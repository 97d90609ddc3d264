import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// Simulated months of one person's notebook with history on and the default retention, the
/// clock injected (`PageOptions.historyClock`) so a day passes in a fraction of a second.
///
/// The model of use, per simulated day:
/// - sessions: 2 to 4 on a weekday, 0 to 2 on a weekend day, starting at 08:00, 13:00, 17:00
///   and 21:00 (plus up to 45 minutes);
/// - each session writes 30 to 90 saves on the notebook's last page, 5 to 40 s apart. A save
///   is one new stroke (84 in 100), an erase (whole strokes, 1 to 3 of the last 30: 6 in
///   100), a partial erase (a stroke cut into its two halves: 3 in 100), an undo of the last
///   stroke (5 in 100) or a lasso move of 1 to 10 strokes (2 in 100);
/// - a new page when the last one holds 120 strokes, and at the start of 1 session in 4;
/// - every 15th day one older page is deleted (to the trash, which is not history);
/// - at 23:30 the app is idle: the pages written that day are compacted, then
///   `Document.applyHistoryRetention` runs with the default policy.
/// History bytes are everything under `history/`; live bytes everything else in the package
/// except `trash/`.
enum HistoryDays {
    struct Day: Sendable {
        var day: Int
        var historyBytes: Int
        var liveBytes: Int
        var trashBytes: Int
        var saves: Int
        var retentionNs: UInt64
    }

    static func run(_ ctx: BenchContext, days: Int) async throws -> [Day] {
        var pool = StrokePool(seed: 90, count: 400)
        var g = SplitMix64(seed: 90)
        func int(_ n: Int) -> Int { Int(g.next() % UInt64(n)) }
        let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_798_761_600))  // a Friday, 00:00 UTC
        var options = PageOptions(durability: .none).withHistory
        options.historyClock = clock
        let library = NoteLibrary(folder: ctx.path("history-days"), fileSystem: POSIXFileSystem.shared)
        let doc = try await library.createDocument(title: "90 days", pageOptions: options)
        var pages = [try await doc.page(at: 0).key]
        var strokesOn: [Stroke] = []  // the last page's strokes as written, newest last
        var out: [Day] = []
        var saves = 0
        var touched = pages
        for day in 1...days {
            let start = clock.date
            let weekend = (day % 7) == 2 || (day % 7) == 3
            let sessions = weekend ? int(3) : 2 + int(3)
            for (n, hour) in [8, 13, 17, 21].prefix(sessions).enumerated() {
                clock.set(start.addingTimeInterval(Double(hour * 3_600 + int(45 * 60))))
                if strokesOn.count >= 120 || (n > 0 && int(4) == 0) || (day > 1 && n == 0 && int(4) == 0) {
                    pages.append(UUIDBytes(try await doc.addPage()))
                    strokesOn = []
                }
                let page = try await doc.page(id: pages[pages.count - 1])
                touched.append(pages[pages.count - 1])
                for _ in 0..<(30 + int(61)) {
                    clock.advance(by: Double(5 + int(36)))
                    let roll = int(100)
                    if strokesOn.isEmpty || roll < 84 {
                        let s = pool.fresh(first: int(400), count: 1)[0]
                        try await page.append(.stroke(s))
                        strokesOn.append(s)
                    } else if roll < 90 {
                        var ids: Set<UUIDBytes> = []
                        for _ in 0...int(3) {
                            let i = max(0, strokesOn.count - 1 - int(30))
                            if i < strokesOn.count { ids.insert(strokesOn[i].key) }
                        }
                        try await page.apply([.delete(Array(ids))])
                        strokesOn.removeAll { ids.contains($0.key) }
                    } else if roll < 93 {
                        let i = max(0, strokesOn.count - 1 - int(30))
                        let target = strokesOn[i]
                        let half = max(1, target.points.count / 2)
                        var a = pool.fresh(first: 0, count: 1)[0]
                        var b = pool.fresh(first: 0, count: 1)[0]
                        a.points = Array(target.points[0..<half])
                        var tail = Array(
                            target.points[half...].isEmpty ? target.points[0..<half] : target.points[half...])
                        let t0 = tail[0].time
                        for k in tail.indices { tail[k].time -= t0 }
                        b.points = tail
                        try await page.apply([.replace(target: target.key, fragments: [.stroke(a), .stroke(b)])])
                        strokesOn.replaceSubrange(i...i, with: [a, b])
                    } else if roll < 98 {
                        let last = strokesOn.removeLast()
                        try await page.apply([.delete([last.key])])
                    } else {
                        let moved = strokesOn.suffix(1 + int(10)).map { ($0.key, Transform.translation(20, 10)) }
                        try await page.apply([.transform(moved)])
                    }
                    saves += 1
                }
            }
            if day % 15 == 0, pages.count > 2 {
                let victim = pages.remove(at: int(pages.count - 1))
                try await doc.deletePage(victim)
            }
            try await doc.flush()
            clock.set(start.addingTimeInterval(23.5 * 3_600))
            // Idle at night: the pages written today are compacted (their journals retired into
            // history), as the engine's idle compaction does.
            for id in Set(touched) where pages.contains(id) { try await doc.page(id: id).compact() }
            touched = []
            let t = BenchSystem.now()
            try await doc.applyHistoryRetention(now: clock.date)
            let retentionNs = BenchSystem.now() &- t
            let history = bytes(under: joinPath(doc.path, "history"))
            let trash = bytes(under: joinPath(doc.path, "trash"))
            out.append(
                Day(
                    day: day, historyBytes: history, liveBytes: bytes(under: doc.path) - history - trash,
                    trashBytes: trash, saves: saves, retentionNs: retentionNs))
            clock.set(start.addingTimeInterval(86_400))
        }
        try await doc.close()
        return out
    }

    /// Bytes of every file under `path`, recursively (logical sizes).
    static func bytes(under path: String) -> Int {
        let fs = POSIXFileSystem.shared
        var total = 0
        for name in (try? fs.list(path)) ?? [] {
            switch try? fs.kind(joinPath(path, name)) {
            case .file(let size)?: total += Int(size)
            case .directory?: total += bytes(under: joinPath(path, name))
            default: break
            }
        }
        return total
    }
}
