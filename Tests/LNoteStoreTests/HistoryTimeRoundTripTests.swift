import Foundation
import LNoteFormat
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// A version's time, given back as a `Date` or as D-020 text, finds that version again
/// (Spec/history.md H-012, format.md D-020).
@Suite("Page history: times round-trip")
struct HistoryTimeRoundTripTests {
    @Test("H-012 D-020 a millisecond count survives Date and timestamp text, for every count tried")
    func millisecondsRoundTrip() {
        var rng = SplitMix(0x7157)
        // Around now, where a division by 1000 often lands a hair below the millisecond.
        let base: Int64 = 1_765_000_000_000
        var counts: [Int64] = [0, 1, 999, 1_000, -1, -999, -1_000, base, base + 123]
        for _ in 0..<20_000 { counts.append(base + Int64(rng.next() % 1_000_000_000)) }
        for t in counts {
            let date = HistoryClock.date(t)
            #expect(HistoryClock.time(date) == t, "\(t)")
            let text = Timestamp.string(from: date)
            #expect(Timestamp.date(from: text).map(HistoryClock.time) == t, "\(t) \(text)")
        }
    }

    @Test("H-012 state(at: version.date) is that version, for every version of a page")
    func versionDateFindsItsVersion() async throws {
        let dir = TemporaryFolder(); defer { dir.remove() }
        var rng = SplitMix(0x5eed)
        let clock = HistoryTimeSource(Date(timeIntervalSince1970: 1_765_000_000.123))
        var options = PageOptions(durability: .none).withHistory
        options.historyClock = clock
        let page = try await Page.open(directory: dir.sub("pages"), id: UUIDBytes.random(), options: options)
        for i in 0..<60 {
            clock.advance(by: Double(1 + rng.next() % 5_000) / 1000)
            try await page.append(.stroke(makeStroke(UInt64(100 + i), points: 4)))
            if i % 20 == 19 { try await page.compact() }
        }
        let versions = try await page.versions()
        #expect(versions.count == 60)
        for v in versions {
            let date = try #require(v.date)
            #expect(try await page.state(at: date) == (try await page.state(atVersion: v.sequence)), "\(v.sequence)")
        }
        try await page.close()
    }
}
