import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote render PACKAGE --page N -o OUT.png`: a page as a picture.
enum RenderCommand: Command {
    static let name = "render"
    static let abstract = "Render a page to a PNG."
    static let usage = "lnote render PACKAGE --page N -o OUT.png [--width PIXELS]"
    static let discussion = """
        Replays the page (salvage mode, read only) and rasterizes its strokes and image
        placeholders into a grayscale PNG with the engine's thumbnail renderer.

        Options:
          --page N|ID       page index (0-based) or id (default 0)
          -o, --output OUT  the PNG to write
          --width PIXELS    image width, 16...8192 (default 1224: 2 px per point on US Letter)
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let selector = try arguments.option("--page") ?? "0"
        guard let output = try arguments.option("-o", "--output") else { throw UsageError("render needs -o OUT.png") }
        let width = try arguments.intOption("--width", range: 16...8192) ?? 1224
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("render takes exactly one PACKAGE")
        }
        let layout = PackageLayout(root: path)
        let document = try PackageSupport.readDocument(layout)
        let id = try PackageSupport.page(selector, in: document)
        let started = monotonicNanoseconds()
        let r: PageRecovery.Result
        do {
            r = try PageRecovery.recover(
                fs: POSIXFileSystem.shared, directory: layout.pagesDirectory, pageID: id, mode: .salvage)
        } catch {
            throw OperationalError("page \(id): \(error)")
        }
        let png = PageRenderer.png(elements: r.state.elements, metadata: r.state.metadata, width: width)
        do { try POSIXFileSystem.shared.writeFileAtomically(absolutePath(output), png, durability: .none) } catch {
            throw OperationalError("cannot write \(output): \(error)")
        }
        print(
            "rendered page \(id) (\(r.state.elements.count) elements) to \(TerminalSafeText.text(output)): \(png.count) bytes, "
                + "\(width) px wide, \(fixed(Double(monotonicNanoseconds() - started) / 1e6, 0)) ms")
        return ExitCode.ok
    }
}
