import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

@Suite("Page history: random edit histories")
struct HistoryPropertyTests {
    let pageID = UUIDBytes(string: "7a1b2c3d-4e5f-4061-8273-94a5b6c7d8e9")!

    /// One random edit history: saves of every kind of change, compactions in the background
    /// and on request, closes and reopens; sometimes a first stretch written with history off
    /// (a page from before history). Returns every version acknowledged with history on.
    func run(seed: UInt64, pages: String) async throws -> [UInt64: PageState] {
        var rng = SplitMix(seed)
        func int(_ n: Int) -> Int { Int(rng.next() % UInt64(n)) }
        var options = PageOptions(
            durability: .none, compaction: CompactionPolicy(journalBytesMax: .max, journalFramesMax: 4 + int(12)),
            journalReserveBytes: 0)
        let prehistory = int(4) == 0 ? 2 + int(3) : 0
        options.keepsHistory = prehistory == 0
        var page = try await Page.open(directory: pages, id: pageID, options: options)
        var acknowledged: [UInt64: PageState] = [:]
        var nextStroke = seed &* 1000
        func stroke() -> Element {
            nextStroke += 1
            return .stroke(makeStroke(nextStroke, points: 4))
        }
        let saves = 15 + int(25)
        for step in 0..<saves {
            if step == prehistory, prehistory > 0 {
                try await page.close()
                options.keepsHistory = true
                page = try await Page.open(directory: pages, id: pageID, options: options)
            }
            let ids = await page.state.elements.map(\.key)
            guard let changes = randomPageChanges(ids: ids, appendWeight: 3, total: 9, int: int, stroke: stroke)
            else {
                if int(2) == 0 {
                    try await page.compact()
                } else {
                    try await page.close()
                    page = try await Page.open(directory: pages, id: pageID, options: options)
                }
                continue
            }
            try await page.apply(changes)
            if options.keepsHistory { acknowledged[await page.changeSequence - 1] = await page.state }
        }
        try await page.close()
        return acknowledged
    }

    @Test(
        "H-020 H-011 H-030 H-032 every acknowledged version rebuilds element for element, across compactions and reopens"
    )
    func everyAcknowledgedVersionRebuilds() async throws {
        let histories = TestLevel.current.pick(quick: 200, ci: 2_000, exhaustive: 10_000)
        let dir = TemporaryFolder(); defer { dir.remove() }
        var versionsChecked = 0
        for seed in 1...UInt64(histories) {
            let pages = dir.sub("h\(seed)/pages")
            let acknowledged = try await run(seed: seed, pages: pages)
            let h = try PageHistory.load(fs: POSIXFileSystem.shared, pagesDirectory: pages, pageID: pageID)
            #expect(h.findings.isEmpty, "seed \(seed): \(h.findings)")
            #expect(h.lostSequences.isEmpty, "seed \(seed)")
            let listed = Dictionary(h.versions.map { ($0.sequence, $0) }, uniquingKeysWith: { a, _ in a })
            for (version, state) in acknowledged.sorted(by: { $0.key < $1.key }) {
                let rebuilt = try h.state(atVersion: version)
                #expect(rebuilt == state, "seed \(seed) version \(version)")
                #expect(listed[version]?.elementCount == state.elements.count, "seed \(seed) version \(version)")
                #expect(listed[version]?.date != nil, "seed \(seed) version \(version)")
                versionsChecked += 1
            }
            // Reopened, the page is its last acknowledged version.
            if let last = acknowledged.keys.max() {
                let page = try await Page.open(directory: pages, id: pageID, options: PageOptions(readOnly: true))
                #expect(await page.state == acknowledged[last], "seed \(seed)")
            }
            try? FileManager.default.removeItem(atPath: dir.path + "/h\(seed)")
        }
        #expect(versionsChecked > histories * 5)
    }
}
