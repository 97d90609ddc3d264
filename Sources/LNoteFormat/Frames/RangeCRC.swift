/// CRC-32C of any stretch of one buffer in time independent of the stretch's length, for
/// resynchronization (J-014, J-024) over hostile bytes.
///
/// A crafted file can place a candidate frame header every 9 bytes, each claiming a long
/// payload; checking each candidate's CRC directly would cost O(n^2). Instead this keeps
/// the raw CRC register at every 256th byte (one CRC pass over the buffer and n/64 bytes
/// of memory, built once) and derives the CRC of `bytes[a..<e]` from the registers at `a`
/// and `e` with one multiplication by `x^(8(e-a))` modulo the polynomial (at most 25 small
/// GF(2) products, about a microsecond). Uses the linearity of the CRC register:
/// `raw(s, B) = shift(s, |B|) ^ raw(0, B)`.
struct RangeCRC {
    static let checkpointStride = 256

    let base: UnsafeRawPointer
    let count: Int
    /// `checkpoints[k]`: the raw register after `bytes[0 ..< 256k]`, started from 0.
    private var checkpoints: [UInt32]

    init(base: UnsafeRawPointer, count: Int) {
        self.base = base
        self.count = count
        var points: [UInt32] = [0]
        points.reserveCapacity(count / Self.checkpointStride + 1)
        var register: UInt32 = 0
        var offset = 0
        while count - offset >= Self.checkpointStride {
            register = Self.advance(register, base + offset, Self.checkpointStride)
            points.append(register)
            offset += Self.checkpointStride
        }
        checkpoints = points
    }

    /// The raw register (no inversions) `register` continued over `length` bytes at `start`.
    @inline(__always)
    static func advance(_ register: UInt32, _ start: UnsafeRawPointer, _ length: Int) -> UInt32 {
        ~CRC32C.extend(~register, UnsafeRawBufferPointer(start: start, count: length))
    }

    /// The raw register after `bytes[0 ..< i]`. Requires `0 <= i <= count`.
    func register(at i: Int) -> UInt32 {
        let k = i / Self.checkpointStride
        let from = k * Self.checkpointStride
        return Self.advance(checkpoints[k], base + from, i - from)
    }

    /// `CRC32C.extend(crc, bytes[a ..< e])`. Requires `0 <= a <= e <= count`.
    @_optimize(speed) func extend(_ crc: UInt32, from a: Int, to e: Int) -> UInt32 {
        // raw(s, B) = shift(s, |B|) ^ raw(0, B) and raw(0, bytes[a..<e]) = R(e) ^ shift(R(a), e - a).
        ~(GF2.shift(~crc ^ register(at: a), bytes: UInt64(e - a)) ^ register(at: e))
    }
}

/// Arithmetic on CRC-32C registers as polynomials over GF(2) modulo the Castagnoli
/// polynomial, in the reflected representation (bit 31 is the coefficient of x^0).
enum GF2 {
    /// `x^(8 * 2^k)` modulo the polynomial, for k in 0..<64.
    static let powers: [UInt32] = {
        var v: UInt32 = 0x8000_0000  // x^0
        for _ in 0..<8 { v = timesX(v) }
        var table = [v]
        for _ in 1..<64 { table.append(multiply(table[table.count - 1], table[table.count - 1])) }
        return table
    }()

    @inline(__always)
    static func timesX(_ v: UInt32) -> UInt32 {
        (v & 1) != 0 ? (v >> 1) ^ CRC32C.polynomial : v >> 1
    }

    /// The product `a * b` modulo the polynomial.
    static func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var a = a
        var b = b
        var product: UInt32 = 0
        while a != 0 {
            if a & 0x8000_0000 != 0 { product ^= b }
            a <<= 1
            b = timesX(b)
        }
        return product
    }

    /// The raw register `v` advanced over `bytes` zero bytes: `v * x^(8 bytes)`.
    static func shift(_ v: UInt32, bytes: UInt64) -> UInt32 {
        var result = v
        var d = bytes
        var k = 0
        while d != 0 && k < 64 {
            if d & 1 != 0 { result = multiply(result, powers[k]) }
            d >>= 1
            k += 1
        }
        return result
    }
}
