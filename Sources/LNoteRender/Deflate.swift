/// A zlib stream (RFC 1950) of DEFLATE data (RFC 1951): LZ77 over a 32 KiB window with hash
/// chains and one-step lazy matching, coded in dynamic Huffman blocks.
///
/// Cost: O(n x chain) time, O(n) memory; about zlib level 6 in ratio on images. Any input
/// is accepted; the output always inflates back to it.
package enum Deflate {
    static let windowSize = 32_768
    static let matchMin = 3
    static let matchMax = 258
    /// Candidates tried per position; fewer is faster, more compresses better.
    static let chainMax = 48
    /// Symbols per block before a new Huffman table is worth its header.
    static let blockSymbolsMax = 49_152

    static let lengthBase: [Int] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43,
        51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258
    ]
    static let lengthExtra: [Int] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4,
        4, 4, 5, 5, 5, 5, 0
    ]
    static let distanceBase: [Int] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257,
        385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289,
        16385, 24577
    ]
    static let distanceExtra: [Int] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9,
        10, 10, 11, 11, 12, 12, 13, 13
    ]
    /// Length (3...258) to length code index (0...28, i.e. symbol 257...285).
    static let lengthCode: [UInt8] = {
        var t = [UInt8](repeating: 0, count: 259)
        for code in 0..<29 {
            var len = lengthBase[code]
            while len < lengthBase[code] + (1 << lengthExtra[code]) && len <= 258 {
                t[len] = UInt8(code)
                len += 1
            }
        }
        return t
    }()
    /// Order in which code-length code lengths are sent (RFC 1951 section 3.2.7).
    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    static func distanceCode(_ d: Int) -> Int {
        if d <= 4 { return d - 1 }
        let x = UInt32(d - 1)
        let hb = 31 - x.leadingZeroBitCount
        return 2 * hb + Int((x >> UInt32(hb - 1)) & 1)
    }

    /// `data` as a zlib stream: header 78 9C, DEFLATE blocks, Adler-32 big-endian.
    package static func zlib(_ data: [UInt8]) -> [UInt8] {
        var w = DeflateBitWriter(reservingCapacity: data.count / 4 + 64)
        w.write(0x78, 8)
        w.write(0x9C, 8)
        compress(data, into: &w)
        w.flush()
        var out = w.bytes
        let adler = Adler32.checksum(data)
        out += [UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF)]
        return out
    }

    /// One LZ77 symbol: a literal (distance 0) or a match of `length` at `distance`.
    struct Symbol {
        var value: UInt16  // literal byte or match length
        var distance: UInt16  // 0 for a literal, else 1...32768
    }

    static func compress(_ data: [UInt8], into w: inout DeflateBitWriter) {
        var symbols: [Symbol] = []
        symbols.reserveCapacity(blockSymbolsMax)
        let hashBits = 15
        let hashSize = 1 << hashBits
        var head = [Int32](repeating: -1, count: hashSize)
        var prev = [Int32](repeating: -1, count: windowSize)
        let n = data.count
        data.withUnsafeBufferPointer { d in
            head.withUnsafeMutableBufferPointer { head in
                prev.withUnsafeMutableBufferPointer { prev in
                    func hash(_ i: Int) -> Int {
                        (Int(d[i]) << 10 ^ Int(d[i + 1]) << 5 ^ Int(d[i + 2])) & (hashSize - 1)
                    }
                    func insert(_ i: Int) {
                        guard i + 2 < n else { return }
                        let h = hash(i)
                        prev[i & (windowSize - 1)] = head[h]
                        head[h] = Int32(i)
                    }
                    /// Longest match at `i` among earlier positions (not inserting `i`).
                    func longest(_ i: Int) -> (length: Int, distance: Int) {
                        guard i + 2 < n else { return (0, 0) }
                        let limit = min(matchMax, n - i)
                        var best = 0, bestDistance = 0
                        var candidate = Int(head[hash(i)])
                        var chain = chainMax
                        while candidate >= 0 && chain > 0 {
                            let distance = i - candidate
                            if distance > windowSize || distance <= 0 { break }
                            if d[candidate + best] == d[i + best] {
                                var l = 0
                                while l < limit && d[candidate + l] == d[i + l] { l += 1 }
                                if l > best {
                                    best = l
                                    bestDistance = distance
                                    if l == limit { break }
                                }
                            }
                            let older = Int(prev[candidate & (windowSize - 1)])
                            if older >= candidate { break }
                            candidate = older
                            chain -= 1
                        }
                        return best >= matchMin ? (best, bestDistance) : (0, 0)
                    }
                    var i = 0
                    var pending = longest(0)
                    while i < n {
                        let match = pending
                        insert(i)
                        if match.length > 0 && match.length < 32 && i + 1 < n {
                            // Lazy: take a literal if the next position matches longer.
                            let next = longest(i + 1)
                            if next.length > match.length {
                                symbols.append(Symbol(value: UInt16(d[i]), distance: 0))
                                i += 1
                                pending = next
                                if symbols.count >= blockSymbolsMax {
                                    writeBlock(symbols, final: false, into: &w)
                                    symbols.removeAll(keepingCapacity: true)
                                }
                                continue
                            }
                        }
                        if match.length > 0 {
                            symbols.append(Symbol(value: UInt16(match.length), distance: UInt16(match.distance)))
                            for j in (i + 1)..<(i + match.length) { insert(j) }
                            i += match.length
                        } else {
                            symbols.append(Symbol(value: UInt16(d[i]), distance: 0))
                            i += 1
                        }
                        if symbols.count >= blockSymbolsMax {
                            writeBlock(symbols, final: false, into: &w)
                            symbols.removeAll(keepingCapacity: true)
                        }
                        pending = i < n ? longest(i) : (0, 0)
                    }
                }
            }
        }
        writeBlock(symbols, final: true, into: &w)
    }

    /// One dynamic-Huffman block (BTYPE 10) holding `symbols` and the end-of-block code.
    static func writeBlock(_ symbols: [Symbol], final: Bool, into w: inout DeflateBitWriter) {
        var litFreq = [Int](repeating: 0, count: 286)
        var distFreq = [Int](repeating: 0, count: 30)
        for s in symbols {
            if s.distance == 0 {
                litFreq[Int(s.value)] += 1
            } else {
                litFreq[257 + Int(lengthCode[Int(s.value)])] += 1
                distFreq[distanceCode(Int(s.distance))] += 1
            }
        }
        litFreq[256] += 1
        let lit = HuffmanCode(frequencies: litFreq, maxLength: 15)
        let dist = HuffmanCode(frequencies: distFreq, maxLength: 15)
        var hlit = 286
        while hlit > 257 && lit.lengths[hlit - 1] == 0 { hlit -= 1 }
        var hdist = 30
        while hdist > 1 && dist.lengths[hdist - 1] == 0 { hdist -= 1 }

        // Run-length code the concatenated lengths with symbols 16, 17, 18.
        let all = Array(lit.lengths[0..<hlit]) + Array(dist.lengths[0..<hdist])
        var rle: [(symbol: Int, extra: UInt32, bits: Int)] = []
        var i = 0
        while i < all.count {
            let v = all[i]
            var run = 1
            while i + run < all.count && all[i + run] == v { run += 1 }
            if v == 0 && run >= 3 {
                let r = min(run, 138)
                rle.append(r >= 11 ? (18, UInt32(r - 11), 7) : (17, UInt32(r - 3), 3))
                i += r
            } else if v != 0 && run >= 4 {
                rle.append((Int(v), 0, 0))
                let r = min(run - 1, 6)
                rle.append((16, UInt32(r - 3), 2))
                i += 1 + r
            } else {
                rle.append((Int(v), 0, 0))
                i += 1
            }
        }
        var clFreq = [Int](repeating: 0, count: 19)
        for r in rle { clFreq[r.symbol] += 1 }
        let cl = HuffmanCode(frequencies: clFreq, maxLength: 7)
        var hclen = 19
        while hclen > 4 && cl.lengths[codeLengthOrder[hclen - 1]] == 0 { hclen -= 1 }

        w.write(final ? 1 : 0, 1)
        w.write(2, 2)
        w.write(UInt32(hlit - 257), 5)
        w.write(UInt32(hdist - 1), 5)
        w.write(UInt32(hclen - 4), 4)
        for k in 0..<hclen { w.write(UInt32(cl.lengths[codeLengthOrder[k]]), 3) }
        for r in rle {
            cl.write(r.symbol, to: &w)
            if r.bits > 0 { w.write(r.extra, r.bits) }
        }
        for s in symbols {
            if s.distance == 0 {
                lit.write(Int(s.value), to: &w)
            } else {
                let length = Int(s.value)
                let lc = Int(lengthCode[length])
                lit.write(257 + lc, to: &w)
                if lengthExtra[lc] > 0 { w.write(UInt32(length - lengthBase[lc]), lengthExtra[lc]) }
                let distance = Int(s.distance)
                let dc = distanceCode(distance)
                dist.write(dc, to: &w)
                if distanceExtra[dc] > 0 { w.write(UInt32(distance - distanceBase[dc]), distanceExtra[dc]) }
            }
        }
        lit.write(256, to: &w)
    }
}
