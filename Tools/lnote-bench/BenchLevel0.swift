import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// Level 0 (the design LNote replaces) for the open suite's baseline: a page as one file of raw 16-byte
/// points (x, y i32, radius, pressure u16, time u32, little-endian), after a u32 stroke count
/// and a u32 point count per stroke. Reading it is one read and a copy per stroke: no
/// checksum, no decoding.
enum Level0Page {
    /// Writes `strokes` in the level-0 layout to `path`.
    static func write(_ strokes: [Stroke], to path: String) throws {
        var w = ByteWriter(capacity: 4 + 4 * strokes.count + 16 * strokes.reduce(0) { $0 + $1.pointCount })
        w.u32(UInt32(strokes.count))
        for s in strokes { w.u32(UInt32(s.pointCount)) }
        for s in strokes { raw(s.points, into: &w) }
        try POSIXFileSystem.shared.writeFileAtomically(path, w.bytes, durability: .none)
    }

    static func raw(_ points: [Point], into w: inout ByteWriter) {
        for p in points {
            w.u32(UInt32(bitPattern: p.x)); w.u32(UInt32(bitPattern: p.y))
            w.u16(p.radius); w.u16(p.pressure); w.u32(p.time)
        }
    }

    /// The pooled strokes' raw points as blobs for the SQLite level-2 peer (`[u32 length][bytes]`).
    static func writeRawBlobFile(_ pool: StrokePool, _ path: String) throws {
        var w = ByteWriter()
        for s in pool.strokes {
            w.u32(UInt32(s.pointCount * Point.rawBytes))
            raw(s.points, into: &w)
        }
        try POSIXFileSystem.shared.writeFileAtomically(path, w.bytes, durability: .none)
    }

    /// The best plain read of the same output the draw path gives (one buffer of every point,
    /// a range per stroke): one `open`, `fstat`, one `read` of the whole file into one buffer
    /// (more only if the kernel returns it short), then one pass copying the records into one
    /// `[Point]`, with the ranges. No checksum, no bounds beyond what keeps it from trapping.
    /// Returns the points.
    static func readPlain(_ path: String) throws -> Int {
        try readPlainPoints(path).points.count
    }

    /// `readPlain(_:)`'s output: every point in one array and each stroke's range of it.
    static func readPlainPoints(_ path: String) throws -> (points: [Point], ranges: [Range<Int>]) {
        guard let bytes = ToolSystem.readWholeFile(path) else {
            throw OperationalError("level 0: cannot read \(path) whole")
        }
        return bytes.withUnsafeBytes { raw -> ([Point], [Range<Int>]) in
            guard raw.count >= 4 else { return ([], []) }
            let strokes = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            let table = 4 + 4 * strokes
            guard table <= raw.count else { return ([], []) }
            var ranges = [Range<Int>](repeating: 0..<0, count: strokes)
            var total = 0
            for k in 0..<strokes {
                let n = Int(raw.loadUnaligned(fromByteOffset: 4 + 4 * k, as: UInt32.self).littleEndian)
                ranges[k] = total..<total + n
                total += n
            }
            guard table + 16 * total <= raw.count else { return ([], []) }
            let src = raw.baseAddress! + table
            let points = [Point](unsafeUninitializedCapacity: total) { out, initialized in
                for i in 0..<total {
                    out[i] = record(at: src + 16 * i)
                }
                initialized = total
            }
            return (points, ranges)
        }
    }

    /// The former baseline: the file read through the engine's bounded reader, each stroke's
    /// records copied into an array of its own (one allocation per stroke); returns the points.
    static func readAndSlice(_ path: String) throws -> Int {
        let bytes = try POSIXFileSystem.shared.readFile(path)
        return bytes.withUnsafeBytes { raw -> Int in
            guard raw.count >= 4 else { return 0 }
            let strokes = Int(raw.loadUnaligned(as: UInt32.self).littleEndian)
            var offset = 4 + 4 * strokes
            guard offset <= raw.count else { return 0 }
            var total = 0
            var sink: [[Point]] = []
            sink.reserveCapacity(strokes)
            for k in 0..<strokes {
                let n = Int(raw.loadUnaligned(fromByteOffset: 4 + 4 * k, as: UInt32.self).littleEndian)
                guard offset + 16 * n <= raw.count else { return total }
                let src = raw.baseAddress! + offset
                sink.append(
                    [Point](unsafeUninitializedCapacity: n) { out, initialized in
                        for i in 0..<n {
                            out[i] = record(at: src + 16 * i)
                        }
                        initialized = n
                    })
                offset += 16 * n
                total += n
            }
            return total
        }
    }

    /// One 16-byte record (x, y i32, radius, pressure u16, time u32, little-endian) as a point.
    @inline(__always)
    private static func record(at p: UnsafeRawPointer) -> Point {
        Point(
            x: Int32(littleEndian: p.loadUnaligned(as: Int32.self)),
            y: Int32(littleEndian: p.loadUnaligned(fromByteOffset: 4, as: Int32.self)),
            radius: UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 8, as: UInt16.self)),
            pressure: UInt16(littleEndian: p.loadUnaligned(fromByteOffset: 10, as: UInt16.self)),
            time: UInt32(littleEndian: p.loadUnaligned(fromByteOffset: 12, as: UInt32.self)))
    }
}
