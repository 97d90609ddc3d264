// Shared fixtures for the element-layer tests (named `Element*Tests.swift` to sit with them):
// a seeded generator, random valid elements and changes, and a synthetic handwriting stroke.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import LNoteSimulation
import Testing
@testable import LNoteFormat
import LNoteHandwriting

/// `Point` in this test target is LNote's: on Apple platforms `import Darwin` also brings
/// MacTypes' `Point`, and a declaration of this module wins over both imports.
typealias Point = LNoteFormat.Point

enum Fixtures {
    static func id(_ n: UInt64) -> UUIDBytes { UUIDBytes(storage: (n, ~n)) }

    /// Valid points (E-003: first time 0, times non-decreasing) with fields anywhere in range.
    static func randomPoints(_ n: Int, hasAngles: Bool, using g: inout SplitMix64) -> [Point] {
        var t: UInt64 = 0
        var out: [Point] = []
        for i in 0..<n {
            if i > 0 {
                let step =
                    g.next() % 2 == 0
                    ? UInt64.random(in: 0...20, using: &g)
                    : UInt64.random(in: 0...1_000_000, using: &g)
                t = min(UInt64(UInt32.max), t + step)
            }
            let wide = g.next() % 3 == 0
            out.append(
                Point(
                    x: wide ? Int32.random(in: .min ... .max, using: &g) : Int32.random(in: -5000...5000, using: &g),
                    y: wide ? Int32.random(in: .min ... .max, using: &g) : Int32.random(in: -5000...5000, using: &g),
                    radius: UInt16.random(in: 0 ... .max, using: &g),
                    pressure: UInt16.random(in: 0 ... .max, using: &g),
                    time: UInt32(t),
                    azimuth: hasAngles ? UInt16.random(in: 0 ... .max, using: &g) : 0,
                    altitude: hasAngles ? UInt16.random(in: 0 ... .max, using: &g) : 0))
        }
        return out
    }

    static func randomTransform(using g: inout SplitMix64) -> Transform {
        Transform(
            a: Float.random(in: -4...4, using: &g), b: Float.random(in: -4...4, using: &g),
            c: Float.random(in: -4...4, using: &g), d: Float.random(in: -4...4, using: &g),
            tx: Float.random(in: -1e6...1e6, using: &g), ty: Float.random(in: -1e6...1e6, using: &g))
    }

    static let inkTypes = ["pen", "pencil", "marker", "füller", String(repeating: "x", count: 64)]

    static func randomElement(id: UUIDBytes, using g: inout SplitMix64) -> Element {
        let transform: Transform? = g.next() % 2 == 0 ? randomTransform(using: &g) : nil
        if g.next() % 4 == 0 {
            return .image(
                ImageElement(
                    id: id, assetID: UUIDBytes.random(using: &g),
                    x: Int32.random(in: .min ... .max, using: &g), y: Int32.random(in: .min ... .max, using: &g),
                    width: UInt32.random(in: 0 ... .max, using: &g), height: UInt32.random(in: 0 ... .max, using: &g),
                    transform: transform))
        }
        let hasAngles = g.next() % 2 == 0
        let ink = Ink(
            type: inkTypes[Int(g.next() % UInt64(inkTypes.count))],
            red: UInt8.random(in: 0 ... .max, using: &g), green: UInt8.random(in: 0 ... .max, using: &g),
            blue: UInt8.random(in: 0 ... .max, using: &g), alpha: UInt8.random(in: 0 ... .max, using: &g),
            width: UInt32.random(in: 0 ... .max, using: &g))
        let n = Int.random(in: 1...40, using: &g)
        return .stroke(
            Stroke(
                id: id, ink: ink, transform: transform, hasAngles: hasAngles,
                points: randomPoints(n, hasAngles: hasAngles, using: &g)))
    }

    /// A random change over ids drawn from `pool` (so changes hit existing and missing ids).
    static func randomChange(pool: [UUIDBytes], using g: inout SplitMix64) -> PageChange {
        func pick(_ g: inout SplitMix64) -> UUIDBytes { pool[Int(g.next() % UInt64(pool.count))] }
        func picks(_ g: inout SplitMix64) -> [UUIDBytes] {
            var out: [UUIDBytes] = []
            for _ in 0..<Int(g.next() % 5) { out.append(pick(&g)) }
            return out
        }
        switch g.next() % 6 {
        case 0: return .append(randomElement(id: pick(&g), using: &g))
        case 1:
            let target = pick(&g)
            var fragments: [Element] = []
            for _ in 0..<Int(g.next() % 4) { fragments.append(randomElement(id: pick(&g), using: &g)) }
            return .replace(target: target, fragments: fragments)
        case 2:
            var pairs: [(UUIDBytes, Transform)] = []
            for id in picks(&g) { pairs.append((id, randomTransform(using: &g))) }
            return .transform(pairs)
        case 3: return .delete(picks(&g))
        case 4: return .reorder(index: Int(g.next() % 12) - 2, ids: picks(&g))
        default: return .metadata(PageMetadata(width: UInt32(g.next() % 10_000), height: UInt32(g.next() % 10_000)))
        }
    }

    /// A plausible handwriting stroke: loopy cursive-like motion advancing to the right
    /// (peak speed about 340 pt/s), sampled at 240 Hz (4.1667 ms), with 0.05 pt of sensor
    /// jitter, pressure that swells and fades with a tremor, radius following pressure, and
    /// slowly varying pen angles.
    static func handwritingStroke(points n: Int, hasAngles: Bool, seed: UInt64) throws -> Stroke {
        var g = SplitMix64(seed: seed)
        var input: [InputPoint] = []
        for i in 0..<n {
            let t = Double(i) / 240.0
            let jx = Double.random(in: -0.05...0.05, using: &g), jy = Double.random(in: -0.05...0.05, using: &g)
            let x = 100 + 60 * t + 12 * sin(2 * .pi * 3.1 * t) + jx
            let y = 200 + 14 * cos(2 * .pi * 2.3 * t) + 5 * sin(2 * .pi * 5.3 * t) + jy
            let u = Double(i) / Double(max(n - 1, 1))
            let force =
                0.35 + 0.4 * sin(.pi * u) + 0.05 * sin(2 * .pi * 7 * t)
                + Double.random(in: -0.004...0.004, using: &g)
            input.append(
                InputPoint(
                    x: x, y: y, radius: 0.8 + 1.2 * force, force: force, timeOffset: t,
                    azimuth: hasAngles ? 1.2 + 0.2 * sin(2 * .pi * 0.5 * t) : nil,
                    altitude: hasAngles ? 0.9 + 0.1 * cos(2 * .pi * 0.7 * t) : nil))
        }
        return try Quantize.stroke(id: id(42), ink: .pen, points: input)
    }
}

/// Encodes an element to bytes.
func encoded(_ e: Element) -> [UInt8] {
    var w = ByteWriter()
    ElementCodec.encode(e, into: &w)
    return w.bytes
}

/// Decodes one element that must fill `bytes` exactly.
func decodeElement(_ bytes: [UInt8]) throws(DecodeError) -> Element {
    let result: Result<Element, DecodeError> = bytes.withUnsafeBytes { raw in
        var r = ByteReader(raw)
        do throws(DecodeError) {
            let e = try ElementCodec.decode(from: &r)
            guard r.isAtEnd else { return .failure(r.error("trailingBytes")) }
            return .success(e)
        } catch { return .failure(error) }
    }
    return try result.get()
}

/// Decodes `count` points that must fill `bytes` exactly.
func decodePoints(_ bytes: [UInt8], count: Int, hasAngles: Bool) throws(DecodeError) -> [Point] {
    let result: Result<[Point], DecodeError> = bytes.withUnsafeBytes { raw in
        var r = ByteReader(raw)
        do throws(DecodeError) {
            let p = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
            guard r.isAtEnd else { return .failure(r.error("trailingBytes")) }
            return .success(p)
        } catch { return .failure(error) }
    }
    return try result.get()
}

func encodedPoints(_ points: [Point], hasAngles: Bool) -> [UInt8] {
    var w = ByteWriter()
    PointCodec.encode(points, hasAngles: hasAngles, into: &w)
    return w.bytes
}

func decodeChange(type: UInt8, _ body: [UInt8], baseOffset: Int = 0) throws(DecodeError) -> PageChange {
    let result: Result<PageChange, DecodeError> = body.withUnsafeBytes { raw in
        do throws(DecodeError) {
            return .success(try PageChangeCodec.decode(type: type, body: raw, baseOffset: baseOffset))
        } catch { return .failure(error) }
    }
    return try result.get()
}

/// The reason a decode threw, or nil when it succeeded.
func reason<T>(_ body: () throws(DecodeError) -> T) -> String? {
    do { _ = try body(); return nil } catch { return error.reason }
}

/// The varint bytes of `v` and the svarint bytes of `v` (G-003, G-005), for hand-made inputs.
func varintBytes(_ v: UInt64) -> [UInt8] { var w = ByteWriter(); w.varint(v); return w.bytes }
func svarintBytes(_ v: Int64) -> [UInt8] { var w = ByteWriter(); w.svarint(v); return w.bytes }

@Test("Fixtures: the seeded generator is deterministic, so failing seeds reproduce")
func splitMixIsDeterministic() {
    var a = SplitMix64(seed: 7), b = SplitMix64(seed: 7)
    let first = (0..<8).map { _ in a.next() }
    let second = (0..<8).map { _ in b.next() }
    #expect(first == second)
    #expect(Set(first).count == 8)
}
