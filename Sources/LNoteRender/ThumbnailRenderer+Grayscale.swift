import LNoteFormat
import LNoteStore

extension ThumbnailRenderer {
    /// The engine's own thumbnails: `PageRenderer.png`, 4-bit grayscale (strokes, and images as
    /// grey placeholder boxes). Set it as `PageOptions.thumbnailRenderer` for covers at
    /// `close()` and after `flush()` without drawing code of your own.
    public static let grayscalePNG = ThumbnailRenderer(name: "LNoteRender.grayscalePNG") { elements, metadata, width in
        PageRenderer.png(elements: elements, metadata: metadata, width: width)
    }
}

extension PageOptions {
    /// These options with `thumbnailRenderer` set to `.grayscalePNG`: covers at `close()` and
    /// after `flush()`, drawn by the engine.
    public var withCovers: PageOptions {
        var options = self
        options.thumbnailRenderer = .grayscalePNG
        return options
    }
}
