import Foundation
import LNoteCheck
import LNoteFormat
import LNoteRender
import LNoteStore

/// A package on disk for fsck tests: pages written through the real `Page` engine, with the
/// last changes of each page left in its journal, then damaged by the test.
struct FsckFixture {
    let folder: String
    let root: String
    let layout: PackageLayout
    var document: DocumentFile
    var pageIDs: [UUIDBytes]
    /// Element ids of each page in z-order, as written.
    var elementIDs: [UUIDBytes: [UUIDBytes]]

    var fs: any FileSystem { POSIXFileSystem.shared }

    /// `snapshotStrokes` strokes compacted into the snapshot, then `journalStrokes` left in the
    /// journal (`<page>.1.journal` when both are > 0; `<page>.0.journal` when only the latter).
    static func make(
        pages: Int = 1, snapshotStrokes: Int = 4, journalStrokes: Int = 6, images: [UUIDBytes] = [],
        thumbnails: Bool = true
    ) async throws -> FsckFixture {
        let folder = FileManager.default.temporaryDirectory.path + "/fsck-\(UUID().uuidString.lowercased())"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let id = UUIDBytes.random()
        let root = folder + "/" + PackageLayout.folderName(id)
        let layout = PackageLayout(root: root)
        let fs = POSIXFileSystem.shared
        for dir in [root, layout.pagesDirectory, layout.assetsDirectory, layout.thumbnailsDirectory] {
            try fs.makeDirectory(dir)
        }
        let now = Timestamp.now()
        var document = DocumentFile(id: id, title: "Fixture", created: now, modified: now, pages: [])
        var elementIDs: [UUIDBytes: [UUIDBytes]] = [:]
        var seed: UInt64 = 1
        for _ in 0..<pages {
            let pageID = UUIDBytes.random()
            let page = try await Page.open(
                directory: layout.pagesDirectory, id: pageID,
                options: PageOptions(durability: .none, compaction: .onCloseOnly).withoutHistory)
            var ids: [UUIDBytes] = []
            for i in 0..<(snapshotStrokes + journalStrokes) {
                if i == snapshotStrokes && snapshotStrokes > 0 { try await page.compact() }
                seed += 1
                let element: Element
                if i < images.count {
                    element = .image(
                        ImageElement(
                            id: UUIDBytes.random(), assetID: images[i], x: 100, y: 100, width: 2000, height: 1500))
                } else {
                    element = .stroke(testStroke(seed))
                }
                try await page.append(element)
                ids.append(element.key)
            }
            if journalStrokes == 0 { try await page.close() } else { try await page.flush(.data) }
            let state = await page.state
            if thumbnails {
                try fs.writeFileAtomically(
                    layout.thumbnail(pageID),
                    PageRenderer.png(elements: state.elements, metadata: state.metadata, width: 64))
            }
            elementIDs[pageID] = ids
            document.pages.append(
                DocumentFile.PageEntry(
                    id: pageID, metadata: .letter, created: now, modified: now,
                    elementCount: ids.count))
        }
        try fs.writeFileAtomically(layout.documentFile, document.encoded())
        try fs.writeFileAtomically(layout.manifestFile, ManifestFile(document: document).encoded())
        return FsckFixture(
            folder: folder, root: root, layout: layout, document: document, pageIDs: document.pages.map(\.id),
            elementIDs: elementIDs)
    }

    func remove() { try? FileManager.default.removeItem(atPath: folder) }

    func path(_ relative: String) -> String { root + "/" + relative }

    func journalName(_ page: UUIDBytes, base: UInt64) -> String { PageFileNames.journal(page, base: base) }

    func read(_ relative: String) throws -> [UInt8] { try fs.readFile(path(relative)) }

    /// Overwrites the file (not atomically: this is damage).
    func write(_ relative: String, _ bytes: [UInt8]) throws {
        _ = FileManager.default.createFile(atPath: path(relative), contents: Data(bytes))
    }

    func exists(_ relative: String) -> Bool { FileManager.default.fileExists(atPath: path(relative)) }

    /// Frame offsets and ends of a journal or snapshot file.
    func frames(_ relative: String) throws -> [ScannedFrame] {
        let bytes = try read(relative)
        let salt = bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 40, as: UInt64.self) }
        let first =
            relative.hasSuffix(".journal")
            ? bytes.withUnsafeBytes { $0.loadUnaligned(fromByteOffset: 48, as: UInt64.self) } : 1
        return FrameScanner.scan(
            bytes, from: 64, salt: UInt64(littleEndian: salt), firstSequence: UInt64(littleEndian: first),
            mode: .salvage
        ).frames
    }

    /// XORs one byte.
    func flip(_ relative: String, at offset: Int) throws {
        var bytes = try read(relative)
        bytes[offset] ^= 0x5A
        try write(relative, bytes)
    }

    /// The page as the engine recovers it now.
    func elements(_ page: UUIDBytes) throws -> [UUIDBytes] {
        try PageRecovery.recover(fs: fs, directory: layout.pagesDirectory, pageID: page, mode: .salvage).state.elements
            .map(\.key)
    }

    /// Every file under the package (the lock file aside) with a digest of its bytes, to prove a
    /// run changed nothing, or the same thing twice.
    func tree(excludingLostAndFound: Bool = false) -> [String: String] {
        var out: [String: String] = [:]
        let enumerator = FileManager.default.enumerator(atPath: root)
        while let rel = enumerator?.nextObject() as? String {
            if excludingLostAndFound && rel.hasPrefix("lost+found") { continue }
            if rel == ".lock" { continue }
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: root + "/" + rel, isDirectory: &isDir), !isDir.boolValue {
                let bytes = (try? fs.readFile(root + "/" + rel)) ?? []
                var h: UInt64 = 0xcbf2_9ce4_8422_2325
                for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
                out[rel] = "\(bytes.count):\(String(h, radix: 16))"
            }
        }
        return out
    }

    /// Files in the (single) lost+found run folder: name -> bytes.
    func lostAndFound() -> [String: [UInt8]] {
        let base = root + "/lost+found"
        guard let runs = try? FileManager.default.contentsOfDirectory(atPath: base) else { return [:] }
        var out: [String: [UInt8]] = [:]
        for run in runs {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: base + "/" + run)) ?? [] {
                out[name] = (try? fs.readFile(base + "/" + run + "/" + name)) ?? []
            }
        }
        return out
    }

    func check(repair: Bool = false, mode: ReplayMode = .salvage, maxErrors: Int? = nil) throws -> FsckReport {
        try Fsck.check(
            path: root,
            options: FsckOptions(repair: repair, mode: mode, maxErrors: maxErrors, thumbnailRenderer: .grayscalePNG))
    }
}

/// A small deterministic stroke.
func testStroke(_ seed: UInt64, points: Int = 12) -> Stroke {
    var x = Int32(truncatingIfNeeded: (seed &* 7919) % 5000) + 100
    var y = Int32(truncatingIfNeeded: (seed &* 104_729) % 7000) + 100
    var pts: [Point] = []
    for i in 0..<points {
        x += Int32(i % 5) - 1
        y += Int32((i * 3) % 7) - 2
        pts.append(Point(x: x, y: y, radius: 8, pressure: UInt16(400 + i), time: UInt32(i * 4)))
    }
    return Stroke(id: UUIDBytes.random(), ink: .pen, points: pts)
}

extension FsckReport {
    func errors(_ kind: String) -> [FsckFinding] { findings.filter { $0.kind == kind && $0.severity == .error } }
    func infos(_ kind: String) -> [FsckFinding] { findings.filter { $0.kind == kind && $0.severity == .info } }
}
