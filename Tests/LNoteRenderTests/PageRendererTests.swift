import LNoteFormat
import LNoteHandwriting
@testable import LNoteRender
import LNoteStore
import LNoteSimulation
import Testing

/// Page thumbnails (PageRenderer): PNG structure, DEFLATE correctness via an independent
/// inflater, pixels where strokes and images are drawn, and the size target for a full page.
@Suite("PageRenderer")
struct PageRendererTests {
    // MARK: helpers

    /// Bitwise CRC-32 (0xEDB88320), independent of the package's table version.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var c: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0xEDB8_8320 : c >> 1 }
        }
        return ~c
    }

    static func be32(_ b: [UInt8], _ i: Int) -> UInt32 {
        UInt32(b[i]) << 24 | UInt32(b[i + 1]) << 16 | UInt32(b[i + 2]) << 8 | UInt32(b[i + 3])
    }

    struct Chunk { var type: String; var data: [UInt8] }

    /// Splits a PNG into chunks, checking the signature and every CRC.
    static func chunks(_ png: [UInt8]) throws -> [Chunk] {
        struct Bad: Error { var why: String }
        guard png.count >= 8, Array(png[0..<8]) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] else {
            throw Bad(why: "signature")
        }
        var out: [Chunk] = []
        var i = 8
        while i < png.count {
            guard i + 12 <= png.count else { throw Bad(why: "truncated chunk header") }
            let len = Int(be32(png, i))
            guard i + 12 + len <= png.count else { throw Bad(why: "truncated chunk") }
            let typeAndData = Array(png[(i + 4)..<(i + 8 + len)])
            guard crc32(typeAndData) == be32(png, i + 8 + len) else { throw Bad(why: "crc") }
            out.append(
                Chunk(
                    type: String(decoding: typeAndData[0..<4], as: UTF8.self),
                    data: Array(typeAndData[4...])))
            i += 12 + len
        }
        return out
    }

    /// Decodes a grayscale PNG of depth 1-8 back to 8-bit pixels (inflate, unfilter, unpack;
    /// level L of depth d becomes L * 255 / (2^d - 1)).
    static func decode(_ png: [UInt8]) throws -> GrayRaster {
        let cs = try chunks(png)
        let ihdr = try #require(cs.first { $0.type == "IHDR" }).data
        let width = Int(be32(ihdr, 0)), h = Int(be32(ihdr, 4)), depth = Int(ihdr[8])
        let w = (width * depth + 7) / 8  // bytes per row
        let raw = try TestInflater.zlib(cs.filter { $0.type == "IDAT" }.flatMap(\.data))
        try #require(raw.count == (w + 1) * h)
        var px = [UInt8](repeating: 0, count: w * h)
        for y in 0..<h {
            let f = raw[y * (w + 1)]
            for x in 0..<w {
                let v = raw[y * (w + 1) + 1 + x]
                let a = x > 0 ? Int(px[y * w + x - 1]) : 0
                let b = y > 0 ? Int(px[(y - 1) * w + x]) : 0
                let c = x > 0 && y > 0 ? Int(px[(y - 1) * w + x - 1]) : 0
                let pred: Int
                switch f {
                case 0: pred = 0
                case 1: pred = a
                case 2: pred = b
                case 3: pred = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    pred = pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
                default: throw TestInflater.Malformed(reason: "filter \(f)")
                }
                px[y * w + x] = UInt8((Int(v) + pred) & 0xFF)
            }
        }
        let maxLevel = (1 << depth) - 1
        var pixels = [UInt8](repeating: 0, count: width * h)
        for y in 0..<h {
            for x in 0..<width {
                let bit = x * depth
                let level = Int(px[y * w + bit / 8]) >> (8 - depth - bit % 8) & maxLevel
                pixels[y * width + x] = UInt8(level * 255 / maxLevel)
            }
        }
        return GrayRaster(width: width, height: h, pixels: pixels)
    }

    /// The raster as a PNG of `depth` bits stores it: each pixel rounded to its level.
    static func quantized(_ r: GrayRaster, depth: Int) -> GrayRaster {
        let maxLevel = (1 << depth) - 1
        var q = r
        q.pixels = r.pixels.map { UInt8((Int($0) * maxLevel + 127) / 255 * 255 / maxLevel) }
        return q
    }

    static func line(
        from a: (Int32, Int32), to b: (Int32, Int32), radius: UInt16, steps: Int = 40,
        transform: Transform? = nil
    ) -> Element {
        let pts = (0...steps).map { k -> Point in
            let t = Double(k) / Double(steps)
            let x: Double = Double(a.0) + (Double(b.0) - Double(a.0)) * t
            let y: Double = Double(a.1) + (Double(b.1) - Double(a.1)) * t
            return Point(x: Int32(x), y: Int32(y), radius: radius, pressure: 500, time: UInt32(k * 4))
        }
        return .stroke(Stroke(id: .random(), ink: .pen, transform: transform, points: pts))
    }

    // MARK: checksums and deflate

    @Test("CRC-32 and Adler-32 match their published check values")
    func checksumsMatchCheckValues() {
        let digits = Array("123456789".utf8)
        #expect(PNGCRC32.checksum(digits) == 0xCBF4_3926)
        #expect(Self.crc32(digits) == 0xCBF4_3926)
        #expect(Adler32.checksum(Array("Wikipedia".utf8)) == 0x11E6_0398)
        #expect(Adler32.checksum([]) == 1)
    }

    @Test("DEFLATE output inflates back to its input: empty, tiny, random, runs, long repeats, multi-block")
    func deflateRoundTrips() throws {
        var rng = SplitMix64(seed: 99)
        var random: [UInt8] = []
        for _ in 0..<70_000 { random.append(UInt8(truncatingIfNeeded: rng.next())) }
        var runs: [UInt8] = []
        for i in 0..<100_000 { runs.append((i / 700) % 3 == 0 ? 255 : UInt8(i % 7)) }
        let text = Array(String(repeating: "the quick brown fox jumps over the lazy dog; ", count: 3_000).utf8)
        var sparse: [UInt8] = []
        for _ in 0..<200_000 { sparse.append(rng.next() % 50 == 0 ? UInt8(truncatingIfNeeded: rng.next()) : 0) }
        var farRepeat: [UInt8] = Array(random[0..<20_000])
        farRepeat += [UInt8](repeating: 1, count: 20_000)
        farRepeat += random[0..<20_000]
        let inputs: [[UInt8]] = [
            [], [42], [1, 2], [UInt8](repeating: 7, count: 1_000), random, runs, text,
            sparse, farRepeat
        ]
        for input in inputs {
            let z = Deflate.zlib(input)
            #expect(try TestInflater.zlib(z) == input)
        }
        #expect(Deflate.zlib(text).count < text.count / 50)
        #expect(Deflate.zlib(random).count < random.count + random.count / 50)  // incompressible stays close
    }

    @Test("Huffman lengths stay within the limit and form a complete code, even for Fibonacci frequencies")
    func huffmanLengthsAreLimitedAndComplete() {
        var fib = [1, 1]
        while fib.count < 30 { fib.append(fib[fib.count - 1] + fib[fib.count - 2]) }  // unlimited depth 29
        for (freq, limit) in [(fib, 15), (fib, 7), ([5, 0, 0, 0], 15), ([0, 0, 0], 7), ([3, 3, 3], 15)] {
            let code = HuffmanCode(frequencies: freq, maxLength: limit)
            #expect(code.lengths.allSatisfy { Int($0) <= limit })
            let kraft = code.lengths.filter { $0 > 0 }.reduce(0) { $0 + (1 << (limit - Int($1))) }
            #expect(kraft == 1 << limit)  // complete: sum of 2^-len is exactly 1
            #expect(zip(freq, code.lengths).allSatisfy { $0.0 == 0 || $0.1 > 0 })
        }
    }

    // MARK: PNG structure

    @Test("PNG has the signature, valid chunk CRCs, IHDR for 8-bit gray, one or more IDAT, final empty IEND")
    func pngIsStructurallyValid() throws {
        let png = PageRenderer.png(
            elements: [Self.line(from: (1000, 1000), to: (5000, 1200), radius: 12)],
            metadata: .letter, width: 256)
        let cs = try Self.chunks(png)
        #expect(cs.first?.type == "IHDR")
        #expect(cs.last?.type == "IEND")
        #expect(cs.last?.data.isEmpty == true)
        #expect(cs.contains { $0.type == "IDAT" })
        let ihdr = try #require(cs.first).data
        #expect(ihdr.count == 13)
        #expect(Self.be32(ihdr, 0) == 256)
        #expect(Self.be32(ihdr, 4) == 331)  // 256 * 7920 / 6120 = 331.3
        #expect(Array(ihdr[8..<13]) == [UInt8(PageRenderer.bitDepth), 0, 0, 0, 0])
    }

    @Test("every bit depth round-trips: 8-bit exactly, 1, 2 and 4 bits to the nearest level")
    func bitDepthsRoundTrip() throws {
        var rng = SplitMix64(seed: 5)
        for (w, h) in [(1, 1), (3, 2), (17, 9), (64, 40)] {
            var px: [UInt8] = []
            for _ in 0..<(w * h) { px.append(UInt8(truncatingIfNeeded: rng.next())) }
            let r = GrayRaster(width: w, height: h, pixels: px)
            for depth in [1, 2, 4, 8] {
                let png = PNGEncoder.grayscale(width: w, height: h, pixels: px, bitDepth: depth)
                #expect(try Self.decode(png) == Self.quantized(r, depth: depth))
            }
        }
    }

    @Test("the PNG's zlib stream inflates and unfilters to exactly the rasterized pixels")
    func pngDecodesToRaster() throws {
        var g = HandwritingGenerator(seed: 4)
        let elements = g.page(strokes: 200).map(Element.stroke)
        let png = PageRenderer.png(elements: elements, metadata: .letter, width: 300)
        let raster = PageRasterizer.raster(elements: elements, metadata: .letter, width: 300)
        #expect(try Self.decode(png) == Self.quantized(raster, depth: PageRenderer.bitDepth))
        #expect(raster.pixels.contains { $0 < 128 })
    }

    // MARK: pixels

    @Test("an empty page is all white, sized by the page aspect")
    func emptyPageIsWhite() throws {
        let r = try Self.decode(PageRenderer.png(elements: [], metadata: .letter, width: 256))
        #expect(r.width == 256 && r.height == 331)
        #expect(r.pixels.allSatisfy { $0 == 255 })
        let square = PageRasterizer.raster(elements: [], metadata: PageMetadata(width: 1000, height: 1000), width: 64)
        #expect(square.width == 64 && square.height == 64)
    }

    @Test("a stroke darkens the pixels under it and nothing away from it")
    func strokeDarkensExpectedPixels() {
        // 612 px for 6120 units: 0.1 px per unit, so the line runs y = 100, x = 100...500, radius 2 px.
        let r = PageRasterizer.raster(
            elements: [Self.line(from: (1000, 1000), to: (5000, 1000), radius: 20)],
            metadata: .letter, width: 612)
        for x in stride(from: 110, through: 490, by: 20) {
            #expect(r[x, 99] < 40 && r[x, 100] < 40)
        }
        #expect(r[300, 106] == 255 && r[300, 93] == 255)  // beyond the radius
        #expect(r[50, 100] == 255 && r[560, 100] == 255)  // beyond the ends
        #expect(r[98, 100] < 80)  // round cap reaches past the end point
        let dark = r.pixels.filter { $0 < 255 }.count
        #expect(dark > 400 * 4 && dark < 410 * 7)
    }

    @Test("E-013 a stroke's transform moves and scales where it is drawn")
    func transformIsHonoured() {
        let moved = Self.line(from: (1000, 1000), to: (5000, 1000), radius: 20, transform: .translation(0, 2000))
        let r = PageRasterizer.raster(elements: [moved], metadata: .letter, width: 612)
        #expect(r[300, 100] == 255)
        #expect(r[300, 300] < 40)
        let scaled = Self.line(
            from: (1000, 1000), to: (2000, 1000), radius: 20,
            transform: Transform(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        let s = PageRasterizer.raster(elements: [scaled], metadata: .letter, width: 612)
        #expect(s[390, 200] < 40 && s[300, 100] == 255)
    }

    @Test("an image is a light grey box with a darker border; later elements draw on top")
    func imagePlaceholder() {
        let image = Element.image(
            ImageElement(
                id: .random(), assetID: .random(), x: 1000, y: 1000,
                width: 2000, height: 1000))
        let r = PageRasterizer.raster(
            elements: [image, Self.line(from: (1000, 1500), to: (3000, 1500), radius: 20)],
            metadata: .letter, width: 612)
        #expect((200...240).contains(r[200, 120]))  // interior, light grey
        #expect(r[200, 100] < r[200, 120])  // top border darker
        #expect(r[150, 150] < 40)  // the stroke over the image
        #expect(r[200, 90] == 255 && r[320, 120] == 255)
    }

    @Test("odd inputs do not trap: non-finite transforms, width 0, zero page size, huge coordinates")
    func oddInputsDoNotTrap() throws {
        let nan = Transform(a: .nan, b: 0, c: 0, d: 1, tx: 0, ty: 0)
        let huge = Transform(a: 1e30, b: 0, c: 0, d: 1e30, tx: 1e30, ty: -1e30)
        let elements = [
            Self.line(from: (0, 0), to: (100, 100), radius: 5, transform: nan),
            Self.line(from: (0, 0), to: (100, 100), radius: 5, transform: huge),
            Self.line(from: (Int32.min, Int32.min), to: (Int32.max, Int32.max), radius: UInt16.max),
            .image(
                ImageElement(
                    id: .random(), assetID: .random(), x: Int32.min, y: 0, width: UInt32.max,
                    height: 10, transform: nan))
        ]
        for (m, w) in [
            (PageMetadata.letter, 0), (PageMetadata(width: 0, height: 0), 32), (PageMetadata(width: 1, height: 1), 16)
        ] {
            let png = PageRenderer.png(elements: elements, metadata: m, width: w)
            #expect(try Self.chunks(png).count == 3)
        }
    }

    // MARK: full page

    @Test("a full page of 1,500 generated strokes at 256 px is under 30 KB and renders quickly")
    func fullPageSizeAndTime() throws {
        var g = HandwritingGenerator(seed: 1)
        let elements = g.page(strokes: 1_500).map(Element.stroke)
        let clock = ContinuousClock()
        var png: [UInt8] = []
        let elapsed = clock.measure {
            png = PageRenderer.png(elements: elements, metadata: .letter, width: 256)
        }
        print("full page: \(elements.count) strokes -> PNG \(png.count) bytes at 256 px in \(elapsed)")
        #expect(png.count < 30_000)
        // ~0.35 s in a debug build on an idle dev machine (0.08 s release); the bound only
        // catches pathological slowdowns, not CI load.
        #expect(elapsed < .seconds(5))
        let r = try Self.decode(png)
        #expect(r.pixels.filter { $0 < 200 }.count > 2_000)  // visibly written on
    }
}
