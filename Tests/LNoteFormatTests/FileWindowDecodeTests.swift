import LNoteHandwriting
import Testing
@testable import LNoteFormat

/// `PageChangeCodec.decodeAppend(body:baseOffset:file:pending:)`, the decoder the page reader
/// uses for deferred points (E-006), slices a stroke's points straight from the buffer read;
/// `decodeAppend(body:baseOffset:source:known:pending:)` slices them from the body's slice. Both must
/// give the same element, the same error, the same points' offsets and the same pending records.
@Suite("E-006 deferred points sliced from the file read")
struct FileWindowDecodeTests {
    /// What one decode gave: the element or the error, the points' range in the file (strokes
    /// with deferred points), and the pending records (offset in the file, length, count, angles).
    struct Outcome: Equatable {
        var element: Element?
        var error: DecodeError?
        var pointsRange: Range<Int>?
        var records: [[Int]]
    }

    static func outcome(_ file: [UInt8], _ range: Range<Int>, withPending: Bool, window: Bool) -> Outcome {
        let pending = withPending ? PendingPointChecks() : nil
        if let pending { pending.keep(file) }
        var out = Outcome(element: nil, error: nil, pointsRange: nil, records: [])
        file.withUnsafeBytes { raw in
            let body = UnsafeRawBufferPointer(rebasing: raw[range])
            do throws(DecodeError) {
                let e =
                    window
                    ? try PageChangeCodec.decodeAppend(
                        body: body, baseOffset: range.lowerBound, file: file, pending: pending)
                    : try PageChangeCodec.decodeAppend(
                        body: body, baseOffset: range.lowerBound, source: file[range],
                        pending: pending)
                out.element = e
                if case .stroke(let s) = e, let encoded = s.encodedPoints {
                    out.pointsRange = encoded.bytes.startIndex..<encoded.bytes.endIndex
                }
            } catch {
                out.error = error
            }
            guard let base = raw.baseAddress else { return }
            out.records = (pending?.records ?? []).map { [$0.bytes - base, $0.length, $0.count, $0.hasAngles ? 1 : 0] }
        }
        return out
    }

    @Test("E-006 bodies at random offsets of one buffer (valid, damaged, cut, images): the window and the slice agree")
    func windowEqualsSlice() {
        var compared = 0, strokes = 0, failures = 0
        for seed in UInt64(0)..<40 {
            var g = SplitMix64(seed: 4_400 + seed)
            var file: [UInt8] = (0..<Int(g.next() % 64)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            var ranges: [Range<Int>] = []
            for _ in 0..<40 {
                var body: [UInt8]
                switch g.next() % 6 {
                case 0:
                    body = encoded(
                        .image(
                            ImageElement(
                                id: UUIDBytes.random(using: &g), assetID: UUIDBytes.random(using: &g),
                                x: -5, y: 7, width: 30, height: 40, transform: nil)))
                case 1:
                    body = DrawAheadReuseTests.stroke(&g, kind: 0)
                    body.removeLast(1 + Int(g.next() % UInt64(body.count)))  // cut anywhere, the head too
                default:
                    body = DrawAheadReuseTests.stroke(&g, kind: g.next() % 8)
                }
                ranges.append(file.count..<file.count + body.count)
                file += body
                file += (0..<Int(g.next() % 8)).map { _ in UInt8(truncatingIfNeeded: g.next()) }
            }
            for range in ranges {
                for withPending in [false, true] {
                    let viaWindow = Self.outcome(file, range, withPending: withPending, window: true)
                    let viaSlice = Self.outcome(file, range, withPending: withPending, window: false)
                    #expect(viaWindow == viaSlice, "seed \(seed), body at \(range)")
                    compared += 1
                    if viaWindow.pointsRange != nil { strokes += 1 }
                    if viaWindow.error != nil { failures += 1 }
                }
            }
        }
        #expect(compared == 3_200)
        #expect(strokes > 1_000, "deferred strokes compared: \(strokes)")
        #expect(failures > 300, "bodies that fail compared: \(failures)")
    }

    @Test("E-006 a window that does not lie inside the buffer never traps: the points are decoded at once")
    func windowOutsideTheBuffer() throws {
        var g = SplitMix64(seed: 4_500)
        let body = DrawAheadReuseTests.stroke(&g, kind: 0)
        let deferred = try decodeDeferred(body)
        for (file, base) in [
            ([UInt8](), 0), (body, 1), (body, -1), (body, body.count), ([UInt8](repeating: 0, count: 8), Int.max)
        ] {
            let e = try body.withUnsafeBytes { raw throws(DecodeError) -> Element in
                var r = ByteReader(raw)
                return try ElementCodec.decode(from: &r, file: file, base: base)
            }
            #expect(e == deferred)
            guard case .stroke(let s) = e else { Issue.record("not a stroke"); continue }
            #expect(s.encodedPoints == nil, "points outside the buffer are not sliced from it")
        }
    }
}
