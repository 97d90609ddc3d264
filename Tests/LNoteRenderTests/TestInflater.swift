/// A small, independent zlib/DEFLATE decoder (after Mark Adler's puff) used only to check
/// that the package's compressor output inflates back to its input. Throws on any malformed
/// stream; never traps.
struct TestInflater {
    struct Malformed: Error, Equatable { var reason: String }

    private let data: [UInt8]
    private var pos = 0
    private var bitBuffer = 0
    private var bitCount = 0
    private var out: [UInt8] = []

    /// A decoding table: symbol counts per length and symbols in canonical order.
    private struct Table { var counts = [Int](repeating: 0, count: 16); var symbols: [Int] = [] }

    private init(_ data: [UInt8]) { self.data = data }

    /// Inflates a zlib stream and checks its header and Adler-32 trailer.
    static func zlib(_ stream: [UInt8]) throws -> [UInt8] {
        guard stream.count >= 6 else { throw Malformed(reason: "short") }
        let cmf = Int(stream[0]), flg = Int(stream[1])
        guard cmf & 0x0F == 8, (cmf << 8 | flg) % 31 == 0, flg & 0x20 == 0 else { throw Malformed(reason: "header") }
        var s = TestInflater(stream)
        s.pos = 2
        try s.inflate()
        let body = s.out
        let trailer = s.pos
        guard trailer + 4 == stream.count else { throw Malformed(reason: "trailer position") }
        var a: UInt32 = 1, b: UInt32 = 0
        for x in body { a = (a + UInt32(x)) % 65521; b = (b + a) % 65521 }
        let want =
            UInt32(stream[trailer]) << 24 | UInt32(stream[trailer + 1]) << 16
            | UInt32(stream[trailer + 2]) << 8 | UInt32(stream[trailer + 3])
        guard want == b << 16 | a else { throw Malformed(reason: "adler") }
        return body
    }

    private mutating func bits(_ n: Int) throws -> Int {
        while bitCount < n {
            guard pos < data.count else { throw Malformed(reason: "out of input") }
            bitBuffer |= Int(data[pos]) << bitCount
            pos += 1
            bitCount += 8
        }
        let v = bitBuffer & ((1 << n) - 1)
        bitBuffer >>= n
        bitCount -= n
        return v
    }

    private mutating func inflate() throws {
        var last = 0
        repeat {
            last = try bits(1)
            switch try bits(2) {
            case 0: try stored()
            case 1: try codes(Self.fixedLengths, Self.fixedDistances)
            case 2: try dynamic()
            default: throw Malformed(reason: "block type 3")
            }
        } while last == 0
        bitBuffer = 0
        bitCount = 0  // drop the padding to the byte boundary
    }

    private mutating func stored() throws {
        bitBuffer = 0
        bitCount = 0
        guard pos + 4 <= data.count else { throw Malformed(reason: "stored header") }
        let len = Int(data[pos]) | Int(data[pos + 1]) << 8
        let nlen = Int(data[pos + 2]) | Int(data[pos + 3]) << 8
        guard len == ~nlen & 0xFFFF else { throw Malformed(reason: "stored length") }
        pos += 4
        guard pos + len <= data.count else { throw Malformed(reason: "stored data") }
        out += data[pos..<(pos + len)]
        pos += len
    }

    private static func table(_ lengths: [Int]) throws -> Table {
        var t = Table()
        for l in lengths { t.counts[l] += 1 }
        var left = 1
        for len in 1..<16 {
            left <<= 1
            left -= t.counts[len]
            guard left >= 0 else { throw Malformed(reason: "over-subscribed code") }
        }
        var offs = [Int](repeating: 0, count: 16)
        for len in 1..<15 { offs[len + 1] = offs[len] + t.counts[len] }
        t.symbols = [Int](repeating: 0, count: lengths.count)
        for (s, l) in lengths.enumerated() where l != 0 {
            t.symbols[offs[l]] = s
            offs[l] += 1
        }
        t.counts[0] = 0
        return t
    }

    private mutating func decode(_ t: Table) throws -> Int {
        var code = 0, first = 0, index = 0
        for len in 1..<16 {
            code |= try bits(1)
            let count = t.counts[len]
            if code - count < first { return t.symbols[index + (code - first)] }
            index += count
            first += count
            first <<= 1
            code <<= 1
        }
        throw Malformed(reason: "bad code")
    }

    private static let lengthBase = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59,
        67, 83, 99, 115, 131, 163, 195, 227, 258
    ]
    private static let lengthExtra = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4,
        5, 5, 5, 5, 0
    ]
    private static let distBase = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513,
        769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577
    ]
    private static let distExtra = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10,
        11, 11, 12, 12, 13, 13
    ]
    // Fixed tables (RFC 1951 section 3.2.6); built once, cannot fail.
    private static let fixedLengths: Table = {
        var l = [Int](repeating: 8, count: 288)
        for i in 144..<256 { l[i] = 9 }
        for i in 256..<280 { l[i] = 7 }
        return (try? table(l)) ?? Table()
    }()
    private static let fixedDistances: Table = (try? table([Int](repeating: 5, count: 30))) ?? Table()

    private mutating func codes(_ lit: Table, _ dist: Table) throws {
        while true {
            let sym = try decode(lit)
            if sym < 256 { out.append(UInt8(sym)); continue }
            if sym == 256 { return }
            let li = sym - 257
            guard li < 29 else { throw Malformed(reason: "length symbol") }
            let len = Self.lengthBase[li] + (try bits(Self.lengthExtra[li]))
            let di = try decode(dist)
            guard di < 30 else { throw Malformed(reason: "distance symbol") }
            let d = Self.distBase[di] + (try bits(Self.distExtra[di]))
            guard d <= out.count else { throw Malformed(reason: "distance too far") }
            for _ in 0..<len { out.append(out[out.count - d]) }
        }
    }

    private mutating func dynamic() throws {
        let nlen = try bits(5) + 257, ndist = try bits(5) + 1, ncode = try bits(4) + 4
        guard nlen <= 286, ndist <= 30 else { throw Malformed(reason: "counts") }
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var cl = [Int](repeating: 0, count: 19)
        for i in 0..<ncode { cl[order[i]] = try bits(3) }
        let clTable = try Self.table(cl)
        var lengths: [Int] = []
        while lengths.count < nlen + ndist {
            let sym = try decode(clTable)
            switch sym {
            case 0..<16: lengths.append(sym)
            case 16:
                guard let prev = lengths.last else { throw Malformed(reason: "repeat with no previous") }
                lengths += [Int](repeating: prev, count: 3 + (try bits(2)))
            case 17: lengths += [Int](repeating: 0, count: 3 + (try bits(3)))
            default: lengths += [Int](repeating: 0, count: 11 + (try bits(7)))
            }
        }
        guard lengths.count == nlen + ndist else { throw Malformed(reason: "too many lengths") }
        guard lengths[256] > 0 else { throw Malformed(reason: "no end-of-block code") }
        try codes(try Self.table(Array(lengths[0..<nlen])), try Self.table(Array(lengths[nlen...])))
    }
}
