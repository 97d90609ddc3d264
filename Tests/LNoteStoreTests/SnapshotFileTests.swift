import LNoteFormat
import Testing
@testable import LNoteStore

@Suite("Snapshot file checks")
struct SnapshotFileTests {
    let pageID = UUIDBytes(string: "5a5a5a5a-0000-4000-8000-000000000009")!

    @Test("S-008 more element frames than the header's count are kept and reported as extraElements")
    func extraElementsAreReported() {
        var state = PageState()
        for i in 0..<3 { state.apply(.append(.stroke(makeStroke(UInt64(i))))) }
        var bytes = SnapshotFile.encode(pageID: pageID, generation: 1, nextSequence: 5, state: state, salt: 9)
        // Rewrite the header with elementCount 2 (and a fresh header CRC).
        let header = SnapshotHeader(pageID: pageID, generation: 1, salt: 9, nextSequence: 5, elementCount: 2)
        bytes.replaceSubrange(0..<64, with: header.encoded())
        let decoded = SnapshotFile.decode(bytes, name: "s", expectedPage: pageID, mode: .salvage)
        #expect(decoded.state.elements.count == 3)
        let extra = decoded.findings.filter { $0.kind == "extraElements" }
        #expect(extra.count == 1)
        #expect(extra.first?.isInformational == false)
        #expect(extra.first?.offset == bytes.count)
    }

    @Test("S-009 a header-only snapshot is reported as missingMetadata and keeps the default canvas")
    func missingMetadataIsReported() {
        let header = SnapshotHeader(pageID: pageID, generation: 1, salt: 9, nextSequence: 1, elementCount: 0)
        let decoded = SnapshotFile.decode(header.encoded(), name: "s", expectedPage: pageID, mode: .salvage)
        #expect(decoded.findings.map(\.kind) == ["missingMetadata"])
        #expect(decoded.state.metadata == .letter)
        #expect(decoded.state.elements.isEmpty)
    }
}
