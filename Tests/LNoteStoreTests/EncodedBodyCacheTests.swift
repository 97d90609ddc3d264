import Foundation
import LNoteFormat
import LNoteSimulation
import Testing
@testable import LNoteStore
import LNoteHandwriting
import LNoteTestSupport

@Suite("Encoded body cache (compaction reuses element encodings)")
struct EncodedBodyCacheTests {
    let pageID = UUIDBytes(string: "7a7a7a7a-1111-4222-8333-444444444444")!

    @Test("S-002 a snapshot written from cached bodies is byte-identical to one encoded from scratch")
    func cachedSnapshotIsIdentical() {
        var state = PageState()
        for i in 0..<40 { state.apply(.append(.stroke(makeStroke(UInt64(i), points: 30)))) }
        let plain = SnapshotFile.encode(pageID: pageID, generation: 3, nextSequence: 99, state: state, salt: 42)
        let decoded = SnapshotFile.decode(plain, name: "x", expectedPage: pageID, mode: .salvage)
        #expect(decoded.cache.bodies.count == 40)
        #expect(decoded.cache.isConsistent(with: state))
        let cached = SnapshotFile.encode(
            pageID: pageID, generation: 3, nextSequence: 99, state: state, salt: 42,
            cache: decoded.cache)
        #expect(cached == plain)
    }

    @Test("E-031 after random edits, reopens and compactions every cached body is the element's encoding")
    func cacheStaysConsistentUnderEdits() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        let pages = dir.sub("pages")
        var rng = SplitMix64(seed: 0xCAC4E)
        let options = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 25))
        var page = try await Page.open(directory: pages, id: pageID, options: options)
        var next: UInt64 = 1
        for round in 0..<400 {
            let ids = await page.elements.map(\.key)
            switch rng.next() % 8 {
            case 0, 1, 2:
                try await page.append(.stroke(makeStroke(next, points: 12))); next += 1
            case 3 where !ids.isEmpty:
                let target = ids[Int(rng.next() % UInt64(ids.count))]
                var a = makeStroke(next, points: 4); next += 1
                a.points = a.points.enumerated().map { i, p in
                    var q = p; q.time = UInt32(i); return q
                }
                try await page.erase(target, replacingWith: [.stroke(a)])
            case 4 where !ids.isEmpty:
                let target = ids[Int(rng.next() % UInt64(ids.count))]
                // Transform an element, then append another in the same batch.
                try await page.apply([
                    .transform([(target, .translation(Float(round), 1))]),
                    .append(.stroke(makeStroke(next, points: 6)))
                ])
                next += 1
            case 5 where !ids.isEmpty:
                try await page.delete([ids[Int(rng.next() % UInt64(ids.count))]])
            case 6 where ids.count > 1:
                try await page.reorder([ids[0]], to: ids.count - 1)
            case 7:
                try await page.close()
                page = try await Page.open(directory: pages, id: pageID, options: options)
            default:
                try await page.append(.stroke(makeStroke(next, points: 9))); next += 1
            }
            #expect(await page.encodedBodyCacheIsConsistent, "round \(round)")
        }
        try await page.flush(.data)
        let expected = await page.elements
        try await page.close()
        let again = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
        #expect(await again.elements == expected)
        #expect(await again.encodedBodyCacheIsConsistent)
    }
}
