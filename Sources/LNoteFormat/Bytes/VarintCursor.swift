/// The varint decoder (G-003: bounds, 10-byte limit, minimal encoding) over the bytes of a
/// `ByteReader`, with the position held in a local for the point codec's loops;
/// `ByteReader.varint` uses it too.
///
/// Cost: one compare and one load per one-byte varint. Never traps: every read is checked
/// against `end` first.
struct VarintCursor {
    let base: UnsafePointer<UInt8>?
    let end: Int
    let baseOffset: Int
    var pos: Int

    init(_ r: ByteReader) {
        base = r.bytes.baseAddress?.assumingMemoryBound(to: UInt8.self)
        end = r.bytes.count
        baseOffset = r.baseOffset
        pos = r.offset
    }

    init(base: UnsafePointer<UInt8>?, end: Int, baseOffset: Int, pos: Int) {
        self.base = base
        self.end = end
        self.baseOffset = baseOffset
        self.pos = pos
    }

    func error(_ reason: String) -> DecodeError { DecodeError(reason, at: baseOffset + pos) }

    @inline(__always)
    mutating func svarint() throws(DecodeError) -> Int64 {
        let u = try varint()
        return Int64(bitPattern: (u >> 1) ^ (0 &- (u & 1)))
    }

    @inline(__always)
    mutating func varint() throws(DecodeError) -> UInt64 {
        guard let base, pos < end else { throw error("truncated") }
        let b = base[pos]
        if b < 0x80 { pos += 1; return UInt64(b) }
        return try varintSlow(base)
    }

    private mutating func varintSlow(_ base: UnsafePointer<UInt8>) throws(DecodeError) -> UInt64 {
        var result: UInt64 = 0
        var shift: UInt64 = 0
        var index = 0
        while true {
            guard pos < end else { throw error("truncated") }
            let b = base[pos]
            pos += 1
            if index == 9 && b > 1 { throw error("varintOverflow") }
            result |= UInt64(b & 0x7F) << shift
            if b < 0x80 {
                if b == 0 && index > 0 { throw error("varintNotMinimal") }
                return result
            }
            index += 1
            shift += 7
        }
    }
}
