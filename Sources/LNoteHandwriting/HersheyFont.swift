/// One Hershey glyph: its left and right margins and its pen strokes, in font units (y down).
struct HersheyGlyph: Sendable {
    /// Left and right margin; the advance width is `right - left`.
    var left: Int
    var right: Int
    /// Polylines in font units, each at least one vertex, in drawing order.
    var strokes: [[(x: Int, y: Int)]]

    var advance: Int { right - left }
}

/// A parsed Hershey face: glyphs for ASCII 32...127, looked up by character.
///
/// Parsing is lenient and never traps: a malformed line yields an empty glyph. In the faces
/// used here the baseline is y = 9, the x-height top y = 0 and the cap top y = -12.
struct HersheyFont: Sendable {
    var glyphs: [HersheyGlyph]

    static let cursive = HersheyFont(lines: HersheyData.cursive)
    static let scripts = HersheyFont(lines: HersheyData.scripts)
    static let scriptc = HersheyFont(lines: HersheyData.scriptc)
    static let futural = HersheyFont(lines: HersheyData.futural)

    /// Font units from baseline to x-height top.
    static let xHeightUnits = 9.0
    /// Baseline y in font units.
    static let baselineUnits = 9.0

    /// Parses `.jhf` lines; a glyph whose vertex pairs run past its line continues on the next.
    init(lines: [String]) {
        var glyphs: [HersheyGlyph] = []
        var index = 0
        while index < lines.count {
            var bytes = Array(lines[index].utf8)
            index += 1
            guard bytes.count >= 8 else { glyphs.append(HersheyGlyph(left: 0, right: 0, strokes: [])); continue }
            let countText = bytes[5..<8].filter { $0 != UInt8(ascii: " ") }
            var pairs = 0
            for d in countText where d >= UInt8(ascii: "0") && d <= UInt8(ascii: "9") {
                pairs = pairs * 10 + Int(d - UInt8(ascii: "0"))
            }
            while bytes.count < 8 + 2 * pairs && index < lines.count {
                bytes += Array(lines[index].utf8)
                index += 1
            }
            glyphs.append(Self.glyph(Array(bytes.dropFirst(8))))
        }
        self.glyphs = glyphs
    }

    private static func glyph(_ data: [UInt8]) -> HersheyGlyph {
        let r = Int(UInt8(ascii: "R"))
        guard data.count >= 2 else { return HersheyGlyph(left: 0, right: 0, strokes: []) }
        var strokes: [[(x: Int, y: Int)]] = []
        var current: [(x: Int, y: Int)] = []
        var i = 2
        while i + 1 < data.count {
            if data[i] == UInt8(ascii: " ") && data[i + 1] == UInt8(ascii: "R") {
                if !current.isEmpty { strokes.append(current) }
                current = []
            } else {
                current.append((Int(data[i]) - r, Int(data[i + 1]) - r))
            }
            i += 2
        }
        if !current.isEmpty { strokes.append(current) }
        return HersheyGlyph(left: Int(data[0]) - r, right: Int(data[1]) - r, strokes: strokes)
    }

    /// The glyph for an ASCII character; characters outside 32...127 map to `?`.
    func glyph(for c: UInt8) -> HersheyGlyph {
        let i = Int(c) - 32
        if i >= 0 && i < glyphs.count { return glyphs[i] }
        let q = Int(UInt8(ascii: "?")) - 32
        return q < glyphs.count ? glyphs[q] : HersheyGlyph(left: 0, right: 0, strokes: [])
    }
}
