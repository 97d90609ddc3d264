import Foundation
import LNoteCheck
import LNoteFormat
import LNoteStore
import Testing

@Suite("fsck decodes points eagerly (E-006)")
struct FsckDeferredPointsTests {
    @Test(
        "E-006 E-007 K-010 a CRC-valid frame whose points break E-002 is badPoints (damage) to fsck, and every open shows its valid prefix, pointsToDraw too"
    )
    func badPointsAreBadBody() async throws {
        let f = try await FsckFixture.make()
        defer { f.remove() }
        let page = f.pageIDs[0]
        let journal = "pages/" + f.journalName(page, base: 1)
        let frames = try f.frames(journal)
        var bytes = try f.read(journal)
        let salt = UInt64(littleEndian: bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt64.self) })
        // A stroke of three points whose third takes the radius below zero (E-002).
        var w = ByteWriter()
        w.u8(ElementCodec.strokeKind); w.uuid(UUIDBytes.random()); w.string("pen"); w.u32(0xFF00_0000); w.varint(20)
        w.u8(0); w.varint(3)
        w.append([0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x27, 0, 0] as [UInt8])
        let sequence = try #require(frames.last?.sequence) + 1
        FrameCodec.append(
            type: FrameType.elementAppend.rawValue, sequence: sequence, body: w.bytes, salt: salt, to: &bytes)
        try f.write(journal, bytes)

        let report = try f.check()
        #expect(report.errors.contains { $0.kind == "badPoints" })
        #expect(report.status == FsckReport.uncorrected)

        let opened = try await Page.open(
            directory: f.layout.pagesDirectory, id: page, options: PageOptions(readOnly: true))
        let elements = await opened.elements
        #expect(elements.count == 11)
        if case .stroke(let s) = elements.last {
            #expect(s.pointCount == 3)
            #expect(s.points.count == 2)
        } else {
            Issue.record("the stroke with bad points is not on the deferred page")
        }
        // Ready to draw: the damaged stroke shows the same two points and is listed; the others all decode.
        let drawn = await opened.pointsToDraw()
        #expect(drawn.damaged.map(\.element) == [10])
        #expect(drawn.damaged.first?.error.reason == "pointOutOfRange")
        #expect(drawn[element: 10].count == 2)
        for (i, e) in elements.enumerated() {
            if case .stroke(let s) = e { #expect(Array(drawn[element: i]) == s.points) }
        }
        try await opened.close()
    }
}
