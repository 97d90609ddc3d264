import LNoteFormat

/// Page thumbnails as PNG: the page's elements rasterized in grayscale and encoded with the
/// package's own DEFLATE, so no image library is needed.
///
/// Output is 4-bit grayscale (colours become luminance). Cost: a US Letter page of 1,500
/// generated strokes at 256 px is ~25 KB and renders in ~0.3-0.5 s in a debug build.
/// Images appear as grey placeholder boxes (asset pixels are not decoded). Transforms are
/// honoured (E-012). Never traps on element values.
public enum PageRenderer {
    /// Bits per pixel of the PNG: 16 grey levels keep anti-aliased edges smooth at half the
    /// size of 8-bit.
    package static let bitDepth = 4

    /// A grayscale PNG `width` pixels wide (clamped to 1...8,192), height by the page aspect.
    public static func png(elements: [Element], metadata: PageMetadata, width: Int) -> [UInt8] {
        let r = PageRasterizer.raster(elements: elements, metadata: metadata, width: width)
        return PNGEncoder.grayscale(width: r.width, height: r.height, pixels: r.pixels, bitDepth: bitDepth)
    }
}
