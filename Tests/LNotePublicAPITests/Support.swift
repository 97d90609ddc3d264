import Foundation
import LNoteStore

/// A fresh folder under the system temp folder, removed by `remove()`.
struct Scratch {
    let url: URL
    init(_ name: String) {
        url = FileManager.default.temporaryDirectory.appending(path: "lnote-api-\(name)-\(UUID())")
    }
    func remove() { try? FileManager.default.removeItem(at: url) }
}

/// PencilKit-like samples: `count` points 0.5 pt apart at 240 Hz, starting at `t0` seconds.
func samples(_ count: Int, x0: Double = 10, y0: Double = 20, t0: Double = 0, angles: Bool = true) -> [InputPoint] {
    (0..<count).map { (i: Int) -> InputPoint in
        let d = Double(i)
        let x: Double = x0 + d * 0.5
        let y: Double = y0 + Double(i % 7) * 0.33
        let force: Double = 0.1 + Double(i % 10) * 0.07
        let azimuth: Double? = angles ? 0.5 + d * 0.01 : nil
        let altitude: Double? = angles ? 1.0 : nil
        return InputPoint(
            x: x, y: y, radius: 1.25, force: force, timeOffset: t0 + d / 240, azimuth: azimuth, altitude: altitude)
    }
}

func stroke(_ count: Int = 30, x0: Double = 10, y0: Double = 20) throws -> Stroke {
    try Stroke(ink: .pen, samples: samples(count, x0: x0, y0: y0))
}

/// A library in a fresh scratch folder with one document open for writing.
func withDocument(_ name: String, _ body: (NoteLibrary, Document) async throws -> Void) async throws {
    let scratch = Scratch(name); defer { scratch.remove() }
    let library = NoteLibrary(folderURL: scratch.url)
    let document = try await library.createDocument(title: name)
    do {
        try await body(library, document)
    } catch {
        try? await document.close()
        throw error
    }
    try await document.close()
}
