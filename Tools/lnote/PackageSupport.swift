import LNoteCheck
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import LNoteFormat
import LNoteStore

/// Package plumbing shared by the subcommands: create a package at any path (the document layer
/// then opens it), read `document.json`, write it with the manifest atomically (D-003), find a
/// page by index or id.
enum PackageSupport {
    /// Creates `path` (a new folder) as a package with `pages` empty pages; returns its document.
    static func create(at path: String, title: String, pages: Int) throws -> DocumentFile {
        let fs = POSIXFileSystem.shared
        if (try? fs.kind(path)) != nil {
            if let names = try? fs.list(path), !names.isEmpty { throw OperationalError("\(path) already exists and is not empty") }
        }
        let layout = PackageLayout(root: path)
        let id = PackageLayout.documentID(fromFolderName: lastComponent(path)) ?? UUIDBytes.random()
        let now = Timestamp.now()
        let document = DocumentFile(id: id, title: title, created: now, modified: now,
                                    pages: (0..<pages).map { _ in
                                        DocumentFile.PageEntry(id: UUIDBytes.random(), metadata: .letter, created: now,
                                                               modified: now, elementCount: 0)
                                    })
        do {
            try FileManager.default.createDirectory(atPath: parentDirectory(of: path), withIntermediateDirectories: true)
            try fs.makeDirectory(path)
            try fs.makeDirectory(layout.pagesDirectory)
            try fs.makeDirectory(layout.assetsDirectory)
            try fs.makeDirectory(layout.thumbnailsDirectory)
            try fs.syncDirectory(path)
            try fs.syncDirectory(parentDirectory(of: path))
            try write(document, layout: layout)
        } catch let e as OperationalError { throw e } catch {
            throw OperationalError("cannot create \(path): \(error)")
        }
        return document
    }

    /// Reads and validates `document.json` (D-020), after checking the package and its folders
    /// are real folders (D-002). The one rule of every read-only command (K-033): a package
    /// whose document.json cannot be used is an operational error (exit 8) naming why.
    static func readDocument(_ layout: PackageLayout) throws -> DocumentFile {
        do {
            try POSIXFileSystem.shared.requirePackageFolders(layout)
            let bytes = try POSIXFileSystem.shared.readRegularFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax)
            let document = try DocumentFile.decode(bytes)
            if let folderID = PackageLayout.documentID(fromFolderName: lastComponent(layout.root)), folderID != document.id {
                throw LNoteError(.corrupt, "document.json id \(document.id) disagrees with the folder name (D-001): another document's",
                                 file: layout.documentFile)
            }
            return document
        } catch {
            throw OperationalError("cannot read \(Escaped.text(layout.documentFile)): \(Escaped.text("\(error)")); run 'lnote fsck' on the package")
        }
    }

    /// Writes `document.json` then `manifest.json`, each atomically (D-003, D-030).
    static func write(_ document: DocumentFile, layout: PackageLayout) throws {
        let fs = POSIXFileSystem.shared
        try fs.writeFileAtomically(layout.documentFile, document.encoded(), durability: .data)
        try fs.writeFileAtomically(layout.manifestFile, ManifestFile(document: document).encoded(), durability: .data)
    }

    /// A page by index (0-based) or id.
    static func page(_ selector: String, in document: DocumentFile) throws -> UUIDBytes {
        if let index = Int(selector) {
            guard document.pages.indices.contains(index) else {
                throw UsageError("page index \(index) out of range 0..<\(document.pages.count)")
            }
            return document.pages[index].id
        }
        guard let id = UUIDBytes(string: selector) else { throw UsageError("--page expects a page id or index, got '\(selector)'") }
        guard document.pages.contains(where: { $0.id == id }) else { throw OperationalError("no page \(selector) in the document") }
        return id
    }

}

/// The last path component.
func lastComponent(_ path: String) -> String {
    guard let slash = path.lastIndex(of: "/") else { return path }
    return String(path[path.index(after: slash)...])
}

/// Milliseconds since an arbitrary start, monotonic.
func monotonicMilliseconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) * 1000 + Double(t.tv_nsec) / 1_000_000
}

/// The `q`-quantile (0...1) of `values` (nearest rank); 0 for none.
func quantile(_ values: [Double], _ q: Double) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    let rank = Int((q * Double(sorted.count)).rounded(.up)) - 1
    return sorted[min(max(rank, 0), sorted.count - 1)]
}

/// A fresh stroke id: generated strokes are deterministic, ids must be unique per page.
func freshID(_ stroke: Stroke) -> Element {
    var s = stroke
    s.id = UUIDBytes.random()
    return .stroke(s)
}

/// `x` with `digits` decimals (no Foundation formatting needed).
func fixed(_ x: Double, _ digits: Int = 1) -> String {
    guard x.isFinite, abs(x) < 1e15 else { return x.isFinite ? "\(x)" : "-" }
    var scale = 1.0
    for _ in 0..<max(digits, 0) { scale *= 10 }
    let n = (abs(x) * scale).rounded()
    let whole = Int(n / scale)
    let frac = Int(n - Double(whole) * scale)
    var s = (x < 0 && n > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let f = String(frac)
        s += "." + String(repeating: "0", count: max(0, digits - f.count)) + f
    }
    return s
}
