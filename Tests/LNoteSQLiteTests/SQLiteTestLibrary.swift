import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteTestSupport

/// Generated libraries of realistic handwriting with everything the level-2 move must carry:
/// several pages and canvases, images (and their assets), strokes erased and split into
/// fragments, transforms, reordering, strokes with pen angles, an empty page.
enum SQLiteTestLibrary {
    /// Creates `documents` documents in `folder`; returns their package paths, sorted.
    static func make(
        in folder: String, documents: Int, strokesPerPage: Int = 40, seed: UInt64 = 1
    ) async throws -> [String] {
        let library = NoteLibrary(folder: folder, fileSystem: POSIXFileSystem.shared)
        var paths: [String] = []
        for d in 0..<documents {
            let document = try await library.createDocument(title: "Notes \(d) — générées")
            try await fill(document, strokesPerPage: strokesPerPage, seed: seed &* 1000 &+ UInt64(d))
            paths.append(document.path)
            try await document.close()
        }
        return paths.sorted()
    }

    /// Page 0: handwriting, an image, a split stroke, transforms, a reorder, angles.
    /// Page 1 (A4 canvas): handwriting and a second image. Page 2: empty, custom canvas.
    static func fill(_ document: Document, strokesPerPage: Int, seed: UInt64) async throws {
        var generator = HandwritingGenerator(seed: seed)
        let first = try await document.page(at: 0)
        var strokes = generator.page(strokes: max(strokesPerPage, 8))  // strokes 2 ... 7 are edited below
        strokes.append(withAngles(generator.nextStroke(), seed: seed))
        try await first.append(contentsOf: strokes.map { .stroke($0) })
        let pageIDs = await document.pageKeys
        try await document.insertImage(
            imageBytes(seed, count: 3000), ext: "png", on: pageIDs[0], x: 400, y: -120, width: 2000, height: 1500)
        // Erase the middle of a stroke: two fragments with new ids take its place (E-021).
        let target = strokes[2]
        try await first.erase(target.key, replacingWith: split(target).map { .stroke($0) })
        try await first.setTransform(.translation(120.5, -33.25), for: [strokes[3].key, strokes[4].key])
        try await first.setTransform(
            Transform(a: 0.8660254, b: 0.5, c: -0.5, d: 0.8660254, tx: 10, ty: 20), for: [strokes[5].key])
        try await first.reorder([strokes[6].key], to: 0)
        try await first.delete([strokes[7].key])

        let a4 = PageMetadata(width: 5953, height: 8419)
        let second = UUIDBytes(try await document.addPage(metadata: a4))
        var generator2 = HandwritingGenerator(seed: seed &+ 77, metadata: a4)
        try await document.page(id: second).append(
            contentsOf: generator2.page(strokes: strokesPerPage / 2).map { .stroke($0) })
        let image = try await document.insertImage(
            imageBytes(seed &+ 1, count: 800), ext: "jpg", on: second, x: 0, y: 0, width: 300, height: 300)
        try await document.page(id: second).setTransform(
            Transform(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 5), for: [image.key])
        _ = UUIDBytes(try await document.addPage(metadata: PageMetadata(width: 1000, height: 2000)))
        try await document.flush()
    }

    /// `stroke` cut into two fragments around its middle, each with a new id; the second's
    /// times are relative to its own first point (E-003).
    static func split(_ stroke: Stroke) -> [Stroke] {
        let points = stroke.points
        let cut = max(1, points.count / 2)
        var head = stroke
        head.key = .random()
        head.points = Array(points[..<cut])
        var tailPoints = Array(points[min(cut + 2, points.count - 1)...])
        let t0 = tailPoints[0].time
        for i in tailPoints.indices { tailPoints[i].time -= t0 }
        let tail = Stroke(
            id: .random(), ink: stroke.ink, transform: stroke.transform, hasAngles: stroke.hasAngles, points: tailPoints
        )
        return [head, tail]
    }

    /// `stroke` with pen angles on every point.
    static func withAngles(_ stroke: Stroke, seed: UInt64) -> Stroke {
        var points = stroke.points
        for i in points.indices {
            points[i].azimuth = UInt16(truncatingIfNeeded: (seed &* 31 &+ UInt64(i) &* 7) % 6283)
            points[i].altitude = UInt16(truncatingIfNeeded: 400 + i % 1100)
        }
        return Stroke(
            id: stroke.key, ink: Ink(type: "pencil", red: 200, green: 10, blue: 60, alpha: 128, width: 30),
            hasAngles: true, points: points)
    }

    /// Deterministic pseudo-image bytes.
    static func imageBytes(_ seed: UInt64, count: Int) -> [UInt8] {
        var x = seed &+ 0x9E37_79B9_7F4A_7C15
        return (0..<count).map { _ in
            x = x &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: x >> 33)
        }
    }

    /// Flips one byte in the middle of the largest page snapshot of the package at `path`
    /// (damage that salvage recovery drops one element for, and fsck repairs).
    static func damageLargestPage(_ path: String) throws {
        let pages = path + "/pages"
        let fm = FileManager.default
        let snapshots = try fm.contentsOfDirectory(atPath: pages).filter { $0.hasSuffix(".content") }
        let size = { (n: String) in ((try? fm.attributesOfItem(atPath: pages + "/" + n))?[.size] as? Int) ?? 0 }
        let name = try require(snapshots.max { size($0) < size($1) }, "no snapshot in \(pages)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: pages + "/" + name)))
        bytes[bytes.count / 2] ^= 0x5A
        try Data(bytes).write(to: URL(fileURLWithPath: pages + "/" + name))
    }
}

/// `#require`-like helper outside a test body.
func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw SQLiteTestFailure(message) }
    return value
}

struct SQLiteTestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ d: String) { description = d }
}
