/// Bits written least significant first, as DEFLATE packs them (RFC 1951 section 3.1.1).
struct DeflateBitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var count = 0

    init(reservingCapacity n: Int) { bytes.reserveCapacity(n) }

    /// Appends the low `width` bits of `value` (width <= 32).
    mutating func write(_ value: UInt32, _ width: Int) {
        buffer |= UInt64(value) << UInt64(count)
        count += width
        while count >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count -= 8
        }
    }

    /// Pads with zero bits to a byte boundary.
    mutating func flush() {
        if count > 0 { bytes.append(UInt8(truncatingIfNeeded: buffer)) }
        buffer = 0
        count = 0
    }
}

/// A canonical, length-limited Huffman code for DEFLATE (RFC 1951 section 3.2.2).
///
/// Cost: O(n log n) in the alphabet size. Codes are stored bit-reversed, ready for
/// `DeflateBitWriter`, which writes least significant bit first.
struct HuffmanCode {
    /// Code length per symbol, 0 for unused symbols.
    var lengths: [UInt8]
    /// Bit-reversed code per symbol.
    var codes: [UInt32]

    /// Builds a code for `frequencies` with no length above `maxLength`. At least two
    /// symbols always get a code (zero-frequency ones are promoted), so the code is complete.
    init(frequencies: [Int], maxLength: Int) {
        var freq = frequencies
        var used = freq.indices.filter { freq[$0] > 0 }
        var k = 0
        while used.count < 2 && k < freq.count {
            if freq[k] == 0 { freq[k] = 1; used.append(k) }
            k += 1
        }
        used.sort { freq[$0] != freq[$1] ? freq[$0] < freq[$1] : $0 < $1 }
        lengths = Self.limitedLengths(freq: freq, ascending: used, maxLength: maxLength, alphabet: freq.count)
        codes = Self.canonicalCodes(lengths)
    }

    /// Huffman depths by the two-queue method, then limited as miniz does: overlong codes
    /// are clamped and the Kraft sum restored by lengthening the deepest shorter codes.
    private static func limitedLengths(
        freq: [Int], ascending used: [Int], maxLength: Int,
        alphabet: Int
    ) -> [UInt8] {
        let m = used.count
        var weight = [Int](repeating: 0, count: 2 * m - 1)
        var parent = [Int](repeating: 0, count: 2 * m - 1)
        for i in 0..<m { weight[i] = freq[used[i]] }
        var leaf = 0, inner = m, next = m
        func pick() -> Int {
            if leaf < m && (inner >= next || weight[leaf] <= weight[inner]) { leaf += 1; return leaf - 1 }
            inner += 1
            return inner - 1
        }
        while next < 2 * m - 1 {
            let a = pick(), b = pick()
            weight[next] = weight[a] + weight[b]
            parent[a] = next
            parent[b] = next
            next += 1
        }
        var depth = [Int](repeating: 0, count: 2 * m - 1)
        var node = 2 * m - 3
        while node >= 0 { depth[node] = depth[parent[node]] + 1; node -= 1 }
        // Count codes per length, clamping overlong ones.
        var perLength = [Int](repeating: 0, count: maxLength + 1)
        for i in 0..<m { perLength[min(depth[i], maxLength)] += 1 }
        var total = 0
        for len in 1...maxLength { total += perLength[len] << (maxLength - len) }
        while total > 1 << maxLength {
            perLength[maxLength] -= 1
            var len = maxLength - 1
            while len > 0 && perLength[len] == 0 { len -= 1 }
            if len == 0 { break }
            perLength[len] -= 1
            perLength[len + 1] += 2
            total -= 1
        }
        // Least frequent symbols take the longest codes.
        var lengths = [UInt8](repeating: 0, count: alphabet)
        var i = 0
        var len = maxLength
        while len >= 1 {
            for _ in 0..<perLength[len] where i < m {
                lengths[used[i]] = UInt8(len)
                i += 1
            }
            len -= 1
        }
        return lengths
    }

    /// Canonical codes from lengths (RFC 1951 section 3.2.2), bit-reversed.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt32] {
        var perLength = [UInt32](repeating: 0, count: 16)
        for l in lengths where l > 0 { perLength[Int(l)] += 1 }
        var nextCode = [UInt32](repeating: 0, count: 16)
        var code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + perLength[bits - 1]) << 1
            nextCode[bits] = code
        }
        var codes = [UInt32](repeating: 0, count: lengths.count)
        for (s, l) in lengths.enumerated() where l > 0 {
            let c = nextCode[Int(l)]
            nextCode[Int(l)] += 1
            var r: UInt32 = 0
            for b in 0..<Int(l) { r |= ((c >> UInt32(b)) & 1) << UInt32(Int(l) - 1 - b) }
            codes[s] = r
        }
        return codes
    }

    func write(_ symbol: Int, to w: inout DeflateBitWriter) {
        w.write(codes[symbol], Int(lengths[symbol]))
    }
}
