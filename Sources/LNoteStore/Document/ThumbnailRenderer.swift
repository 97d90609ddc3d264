import LNoteFormat

/// What draws a page's thumbnail (the first page's is the document's cover, D-050): PNG bytes of
/// a page's elements on its canvas, a given number of pixels wide.
///
/// The engine renders covers at `close()` and after `flush()` with the renderer in
/// `PageOptions.thumbnailRenderer`. It ships none itself, so an app that draws its own
/// thumbnails (`Document.storeThumbnail`) does not carry a rasterizer and PNG encoder it never
/// uses: `import LNoteRender` and set `.grayscalePNG` (the engine's 4-bit grayscale renderer) for
/// covers without writing any drawing code, or wrap your own drawing code here.
public struct ThumbnailRenderer: Sendable, Equatable {
    /// Names the renderer: two renderers are equal when their names are.
    public let name: String
    /// PNG bytes of `elements` on a `metadata` canvas, `width` pixels wide. Runs off the
    /// document's actor, on the engine's I/O queue; must not trap on any element values.
    public let render: @Sendable (_ elements: [Element], _ metadata: PageMetadata, _ width: Int) -> [UInt8]

    public init(
        name: String,
        render: @escaping @Sendable (_ elements: [Element], _ metadata: PageMetadata, _ width: Int) -> [UInt8]
    ) {
        self.name = name; self.render = render
    }

    public static func == (a: ThumbnailRenderer, b: ThumbnailRenderer) -> Bool { a.name == b.name }
}
