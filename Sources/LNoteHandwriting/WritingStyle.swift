import LNoteFormat

/// One writer's hand: size, slant, spacing, speed, pressure and tremor, drawn once per seed.
///
/// All lengths in points (1/72 in); speeds in points per second.
struct WritingStyle: Sendable {
    /// Letters and punctuation come from `scripts` (its marks sit on the baseline); digits
    /// from `cursive`, whose digits are single-stroke (those of `scripts` are doubled).
    func glyph(for c: UInt8) -> HersheyGlyph {
        if c >= UInt8(ascii: "0") && c <= UInt8(ascii: "9") { return HersheyFont.cursive.glyph(for: c) }
        return HersheyFont.scripts.glyph(for: c)
    }
    /// Height of a lowercase `x`, 8-9.5 pt (ascenders reach 2.3 times that, descenders 1.3).
    var xHeight: Double
    /// Points per font unit.
    var scale: Double { xHeight / HersheyFont.xHeightUnits }
    /// Shear: x moves right by `slant` per point of height above the baseline.
    var slant: Double
    /// Baseline to baseline.
    var lineSpacing: Double
    /// Extra advance between words, in points.
    var wordGap: Double
    var marginLeft: Double, marginRight: Double, marginTop: Double, marginBottom: Double
    /// Top pen speed on straight runs, in points per second: 157-203 pt/s (55-72 mm/s);
    /// curves and stroke ends are slower, so the mean is ~155 pt/s (55 mm/s).
    var penSpeed: Double
    /// Mid-stroke pressure, in thousandths.
    var pressure: Double
    /// Standard deviation of the positional tremor, in points.
    var tremor: Double

    init(rng: inout HandwritingRandom) {
        xHeight = rng.uniform(8.0, 9.5)
        slant = rng.uniform(0.08, 0.3)
        lineSpacing = xHeight * rng.uniform(3.0, 3.3)
        wordGap = xHeight * rng.uniform(0.5, 0.8)
        marginLeft = rng.uniform(40, 60)
        marginRight = rng.uniform(30, 45)
        marginTop = rng.uniform(50, 70)
        marginBottom = rng.uniform(40, 55)
        // Isochrony: larger writing is written faster, so a word takes about the same time.
        penSpeed = xHeight * rng.uniform(19.6, 21.4)
        pressure = rng.uniform(480, 640)
        tremor = rng.uniform(0.06, 0.14)
    }

    /// Inks a writer picks from: mostly the default pen, sometimes blue, red or pencil.
    static func ink(using rng: inout HandwritingRandom) -> Ink {
        let r = rng.unit()
        if r < 0.82 { return .pen }
        if r < 0.92 { return Ink(type: "pen", red: 25, green: 55, blue: 170, width: 12) }
        if r < 0.97 { return Ink(type: "pen", red: 190, green: 30, blue: 35, width: 12) }
        return Ink(type: "pencil", red: 90, green: 90, blue: 95, width: 10)
    }
}
