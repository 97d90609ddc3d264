import LNoteStore

/// PNG files (ISO/IEC 15948) from 8-bit grayscale rasters: signature, IHDR, one IDAT, IEND.
///
/// At 8 bits each row gets the filter (None, Sub, Up, Average or Paeth) with the smallest sum
/// of absolute signed residuals, the usual heuristic; packed lower depths use None. The
/// filtered rows go through `Deflate`.
/// Cost: O(width x height) plus compression.
package enum PNGEncoder {
    /// Encodes `pixels` (row-major, `width * height` gray levels, 0 black) as a PNG of
    /// `bitDepth` 1, 2, 4 or 8 bits per pixel; lower depths round each pixel to the nearest
    /// of 2, 4 or 16 evenly spaced levels. Traps if `pixels.count != width * height`, a
    /// dimension is below 1 or the depth is not one of those (programmer errors).
    package static func grayscale(width: Int, height: Int, pixels: [UInt8], bitDepth: Int = 8) -> [UInt8] {
        precondition(width >= 1 && height >= 1 && pixels.count == width * height)
        precondition([1, 2, 4, 8].contains(bitDepth))
        var out = Document.pngSignature  // the signature D-051 checks thumbnails for
        var ihdr: [UInt8] = []
        append32(UInt32(width), to: &ihdr)
        append32(UInt32(height), to: &ihdr)
        // Colour type 0 (gray), deflate, adaptive filtering, no interlace.
        ihdr += [UInt8(bitDepth), 0, 0, 0, 0]
        chunk("IHDR", ihdr, to: &out)
        let rows = packed(width: width, height: height, pixels: pixels, bitDepth: bitDepth)
        let filteredRows = filtered(
            rowBytes: rows.rowBytes, height: height, bytes: rows.bytes,
            adaptive: bitDepth == 8)
        chunk("IDAT", Deflate.zlib(filteredRows), to: &out)
        chunk("IEND", [], to: &out)
        return out
    }

    /// Rows packed at `bitDepth`, leftmost pixel in the high bits, rows padded to a byte.
    static func packed(width: Int, height: Int, pixels: [UInt8], bitDepth: Int) -> (rowBytes: Int, bytes: [UInt8]) {
        guard bitDepth < 8 else { return (width, pixels) }
        let perByte = 8 / bitDepth
        let rowBytes = (width + perByte - 1) / perByte
        let maxLevel = (1 << bitDepth) - 1
        var out = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            for x in 0..<width {
                let level = (Int(pixels[y * width + x]) * maxLevel + 127) / 255
                let shift = 8 - bitDepth * (x % perByte + 1)
                out[y * rowBytes + x / perByte] |= UInt8(level << shift)
            }
        }
        return (rowBytes, out)
    }

    /// Rows prefixed with their filter type byte (PNG section 9); the filter unit is one byte.
    /// `adaptive` picks per row as described above; otherwise every row uses None, which
    /// compresses packed low-depth rows better (measured: 4-bit page thumbnails ~8% smaller,
    /// as libpng also defaults to for depths below 8).
    static func filtered(rowBytes width: Int, height: Int, bytes pixels: [UInt8], adaptive: Bool) -> [UInt8] {
        guard adaptive else {
            var out = [UInt8]()
            out.reserveCapacity((width + 1) * height)
            for y in 0..<height {
                out.append(0)
                out += pixels[(y * width)..<(y * width + width)]
            }
            return out
        }
        var out = [UInt8]()
        out.reserveCapacity((width + 1) * height)
        var candidate = [[UInt8]](repeating: [UInt8](repeating: 0, count: width), count: 5)
        pixels.withUnsafeBufferPointer { p in
            for y in 0..<height {
                let row = y * width
                let up = row - width
                for f in 0..<5 {
                    for x in 0..<width {
                        let v = p[row + x]
                        let a = x > 0 ? p[row + x - 1] : 0
                        let b = y > 0 ? p[up + x] : 0
                        let c = x > 0 && y > 0 ? p[up + x - 1] : 0
                        let predictor: UInt8
                        switch f {
                        case 0: predictor = 0
                        case 1: predictor = a
                        case 2: predictor = b
                        case 3: predictor = UInt8((Int(a) + Int(b)) / 2)
                        default: predictor = paeth(a, b, c)
                        }
                        candidate[f][x] = v &- predictor
                    }
                }
                var best = 0, bestCost = Int.max
                for f in 0..<5 {
                    var cost = 0
                    for r in candidate[f] { cost += r < 128 ? Int(r) : 256 - Int(r) }
                    if cost < bestCost { bestCost = cost; best = f }
                }
                out.append(UInt8(best))
                out += candidate[best]
            }
        }
        return out
    }

    static func paeth(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        let p = Int(a) + Int(b) - Int(c)
        let pa = abs(p - Int(a)), pb = abs(p - Int(b)), pc = abs(p - Int(c))
        if pa <= pb && pa <= pc { return a }
        return pb <= pc ? b : c
    }

    static func append32(_ v: UInt32, to out: inout [UInt8]) {
        out += [UInt8(v >> 24), UInt8((v >> 16) & 0xFF), UInt8((v >> 8) & 0xFF), UInt8(v & 0xFF)]
    }

    /// Length, type, data, CRC-32 over type and data (PNG section 5.3).
    static func chunk(_ type: String, _ data: [UInt8], to out: inout [UInt8]) {
        let typeBytes = Array(type.utf8)
        append32(UInt32(data.count), to: &out)
        out += typeBytes
        out += data
        append32(PNGCRC32.checksum(typeBytes + data), to: &out)
    }
}
