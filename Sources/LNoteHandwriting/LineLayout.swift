import LNoteFormat

/// Places words on ruled lines: left to right, wrapping at the right margin, top to bottom,
/// and back to the top line when the page is full.
///
/// Cost: O(1) per word. Positions are in points; y is the baseline.
struct LineLayout: Sendable {
    private let style: WritingStyle
    private let pageWidth: Double
    private let pageHeight: Double
    private var x: Double
    private var baseline: Double
    private var lineStart: Double

    init(style: WritingStyle, metadata: PageMetadata) {
        self.style = style
        pageWidth = Double(metadata.width) / 10
        pageHeight = Double(metadata.height) / 10
        lineStart = style.marginLeft
        x = style.marginLeft
        baseline = style.marginTop + style.xHeight * 2
    }

    /// Where the next word of `width` points starts, and whether it opened a new line.
    mutating func place(
        width: Double, newParagraph: Bool, rng: inout HandwritingRandom
    )
        -> (x: Double, y: Double, newLine: Bool)
    {
        let right = pageWidth - style.marginRight
        var newLine = false
        if newParagraph && x > lineStart {
            nextLine(rng: &rng)
            x += style.xHeight * 3  // indent
            newLine = true
        } else if x + width > right && x > lineStart {
            nextLine(rng: &rng)
            newLine = true
        }
        let origin = (x: x, y: baseline, newLine: newLine)
        x += width + style.wordGap * rng.uniform(0.8, 1.25)
        return origin
    }

    private mutating func nextLine(rng: inout HandwritingRandom) {
        lineStart = style.marginLeft + rng.uniform(-3, 3)
        x = lineStart
        baseline += style.lineSpacing * rng.uniform(0.97, 1.03)
        if baseline + style.xHeight * 1.5 > pageHeight - style.marginBottom {
            // Page full: start again at the top, on the same ruled lines (as if on a fresh
            // page), so a long page reads as layered lines of text.
            baseline = style.marginTop + style.xHeight * 2 + rng.uniform(-1, 1)
        }
    }
}
