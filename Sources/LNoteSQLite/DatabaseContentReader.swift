import LNoteFormat
import LNoteStore

/// Reads documents back from the database, checking every value against the
/// format's rules before it becomes a page element: what an app or another tool wrote may be
/// anything, so a bad row gives a `SQLiteContentError`, never a trap.
package final class DatabaseContentReader {
    private let db: SQLiteConnection
    private let pages, strokes, images, assets, assetSizes: SQLiteStatement

    package init(_ db: SQLiteConnection) throws {
        self.db = db
        pages = try db.prepare(
            "SELECT id, uuid, width, height, created, modified FROM pages WHERE documentId = ?1 ORDER BY position")
        strokes = try db.prepare(
            """
            SELECT uuid, zIndex, inkType, color, width, transformA, transformB, transformC, transformD, transformTx,
                   transformTy, pointCount, points, angles
            FROM strokes WHERE pageId = ?1 ORDER BY zIndex
            """)
        images = try db.prepare(
            """
            SELECT uuid, zIndex, assetUuid, x, y, width, height, transformA, transformB, transformC, transformD,
                   transformTx, transformTy
            FROM images WHERE pageId = ?1 ORDER BY zIndex
            """)
        assets = try db.prepare("SELECT uuid, ext, bytes FROM assets WHERE documentId = ?1 ORDER BY uuid")
        assetSizes = try db.prepare(
            "SELECT uuid, ext, length(bytes), id FROM assets WHERE documentId = ?1 ORDER BY uuid")
    }

    /// Every row of `documents`: its row id and its uuid (nil when not 16 bytes, a row the
    /// import refuses by its row id, Q-060), in uuid order, then row order.
    package func documentRows() throws -> [(row: Int64, id: UUIDBytes?)] {
        let s = try db.prepare("SELECT id, uuid FROM documents ORDER BY uuid, id")
        var out: [(Int64, UUIDBytes?)] = []
        while try s.step() { out.append((s.int64(0), UUIDBytes(bytes: s.blob(1)))) }
        return out
    }

    /// The content of document `id`, or nil when the database does not hold it.
    package func read(_ id: UUIDBytes, assetBytes: Bool = true) throws -> DocumentContent? {
        let find = try db.prepare("SELECT id FROM documents WHERE uuid = ?1")
        try find.bind(1, id.bytes)
        guard try find.step() else { return nil }
        return try read(row: find.int64(0), id: id, assetBytes: assetBytes)
    }

    /// The content of the `documents` row `row` (of uuid `id`), or nil when there is no such row.
    /// Without `assetBytes` the assets are read by their sizes, their bytes left in the
    /// database for `SQLiteConnection.readBlob`.
    package func read(row: Int64, id: UUIDBytes, assetBytes: Bool = true) throws -> DocumentContent? {
        let doc = try db.prepare("SELECT id, title, created, modified FROM documents WHERE id = ?1")
        try doc.bind(1, row)
        guard try doc.step() else { return nil }
        let title = doc.text(1) ?? "", created = doc.text(2) ?? "", modified = doc.text(3) ?? ""
        guard title.utf8.count <= DocumentFile.titleBytesMax,
            created.utf8.count <= DocumentFile.timestampBytesMax, modified.utf8.count <= DocumentFile.timestampBytesMax
        else {
            throw SQLiteContentError("document \(id): title or times too long (D-024)")
        }
        var content = DocumentContent(
            id: id, title: title, created: created, modified: modified, pages: [],
            assets: try assetBytes ? readAssets(row, id) : readAssetSizes(row, id))
        pages.reset()
        try pages.bind(1, row)
        var pageRows: [(Int64, DocumentFile.PageEntry)] = []
        while try pages.step() {
            // D-011 as the rows come: a document of ten million page rows is refused after
            // the first rows past the limit, never read whole into memory.
            guard pageRows.count < FormatLimits.pagesPerDocumentMax else {
                throw SQLiteContentError(
                    "document \(id): more than \(FormatLimits.pagesPerDocumentMax) pages (D-011)")
            }
            guard let pageID = UUIDBytes(bytes: pages.blob(1)), let w = UInt32(exactly: pages.int64(2)),
                let h = UInt32(exactly: pages.int64(3))
            else {
                throw SQLiteContentError("document \(id): a page row has a bad uuid or canvas size (Q-011)")
            }
            let created = pages.text(4) ?? "", modified = pages.text(5) ?? ""
            guard created.utf8.count <= DocumentFile.timestampBytesMax,
                modified.utf8.count <= DocumentFile.timestampBytesMax
            else {
                throw SQLiteContentError("page \(pageID): times too long (D-024)")
            }
            pageRows.append(
                (
                    pages.int64(0),
                    .init(
                        id: pageID, metadata: PageMetadata(width: w, height: h), created: created,
                        modified: modified, elementCount: 0)
                ))
        }
        guard Set(pageRows.map(\.1.id)).count == pageRows.count else {
            throw SQLiteContentError("document \(id): a repeated page uuid (D-011)")
        }
        for (pageRow, entry) in pageRows {
            let elements = try readElements(pageRow, page: entry.id)
            content.pages.append(.init(entry: entry, state: PageState(metadata: entry.metadata, elements: elements)))
        }
        return content
    }

    /// The elements of one page in z-order, every row checked as for an import; nil when
    /// the database has no such page. Cost: one indexed look-up and one range scan per table.
    package func pageElements(document: UUIDBytes, page: UUIDBytes) throws -> [Element]? {
        let find = try db.prepare(
            "SELECT p.id FROM pages p JOIN documents d ON p.documentId = d.id WHERE d.uuid = ?1 AND p.uuid = ?2")
        try find.bind(1, document.bytes); try find.bind(2, page.bytes)
        guard try find.step() else { return nil }
        return try readElements(find.int64(0), page: page)
    }

    /// The page's strokes and images merged by `zIndex`, each checked (E-010 ... E-012).
    private func readElements(_ pageRow: Int64, page: UUIDBytes) throws -> [Element] {
        var layered: [(Int64, Element)] = []
        strokes.reset()
        try strokes.bind(1, pageRow)
        while try strokes.step() { layered.append((strokes.int64(1), try stroke(page))) }
        images.reset()
        try images.bind(1, pageRow)
        while try images.step() { layered.append((images.int64(1), try image(page))) }
        layered.sort { $0.0 < $1.0 }
        var seen = Set<UUIDBytes>()
        var previous: Int64?
        var out: [Element] = []
        out.reserveCapacity(layered.count)
        for (z, element) in layered {
            guard z != previous else { throw SQLiteContentError("page \(page): two elements at zIndex \(z) (Q-023)") }
            guard seen.insert(element.key).inserted else {
                throw SQLiteContentError("page \(page): element \(element.key) twice (E-011)")
            }
            do { try ElementValidator.validate(element) } catch {
                throw SQLiteContentError("page \(page): element \(element.key): \(error)")
            }
            previous = z
            out.append(element)
        }
        return out
    }

    private func stroke(_ page: UUIDBytes) throws -> Element {
        let s = strokes
        let count = s.int64(11)
        guard let id = UUIDBytes(bytes: s.blob(0)) else {
            throw SQLiteContentError("page \(page): a stroke uuid is not 16 bytes")
        }
        guard let color = UInt32(exactly: s.int64(3)), let width = UInt32(exactly: s.int64(4)),
            (1...Int64(FormatLimits.strokePointsMax)).contains(count)
        else {
            throw SQLiteContentError("stroke \(id): color, width or pointCount out of range (Q-021)")
        }
        let anglesBlob: [UInt8]? = s.isNull(13) ? nil : s.blob(13)
        guard let points = PointBlob.decode(points: s.blob(12), angles: anglesBlob, count: Int(count)) else {
            throw SQLiteContentError("stroke \(id): points or angles BLOB is not \(count) points long (Q-030, Q-031)")
        }
        let ink = Ink(
            type: s.text(2) ?? "", red: UInt8(truncatingIfNeeded: color >> 24),
            green: UInt8(truncatingIfNeeded: color >> 16),
            blue: UInt8(truncatingIfNeeded: color >> 8), alpha: UInt8(truncatingIfNeeded: color), width: width)
        return .stroke(
            Stroke(
                id: id, ink: ink, transform: try transform(s, at: 5, id), hasAngles: anglesBlob != nil, points: points))
    }

    private func image(_ page: UUIDBytes) throws -> Element {
        let s = images
        guard let id = UUIDBytes(bytes: s.blob(0)), let asset = UUIDBytes(bytes: s.blob(2)) else {
            throw SQLiteContentError("page \(page): an image uuid is not 16 bytes")
        }
        guard let x = Int32(exactly: s.int64(3)), let y = Int32(exactly: s.int64(4)),
            let w = UInt32(exactly: s.int64(5)), let h = UInt32(exactly: s.int64(6))
        else {
            throw SQLiteContentError("image \(id): position or size out of range (E-012)")
        }
        return .image(
            ImageElement(
                id: id, assetID: asset, x: x, y: y, width: w, height: h, transform: try transform(s, at: 7, id)))
    }

    /// Six REAL columns, all NULL (no transform) or all finite values that are exact `Float`s.
    private func transform(_ s: SQLiteStatement, at first: Int32, _ id: UUIDBytes) throws -> Transform? {
        let nulls = (0..<Int32(6)).filter { s.isNull(first + $0) }.count
        if nulls == 6 { return nil }
        let values = (0..<Int32(6)).map { s.double(first + $0) }
        guard nulls == 0, values.allSatisfy({ $0.isFinite && Double(Float($0)) == $0 }) else {
            throw SQLiteContentError("element \(id): transform must be six NULLs or six finite 32-bit floats (Q-022)")
        }
        let f = values.map { Float($0) }
        return Transform(a: f[0], b: f[1], c: f[2], d: f[3], tx: f[4], ty: f[5])
    }

    private func readAssets(_ documentRow: Int64, _ id: UUIDBytes) throws -> [DocumentContent.Asset] {
        assets.reset()
        try assets.bind(1, documentRow)
        var out: [DocumentContent.Asset] = []
        while try assets.step() {
            let ext = assets.text(1) ?? ""
            let bytes = assets.blob(2)
            guard let assetID = UUIDBytes(bytes: assets.blob(0)), PackageLayout.isValidAssetExtension(ext),
                bytes.count <= Document.assetBytesMax
            else {
                throw SQLiteContentError("document \(id): an asset has a bad uuid, extension or size (Q-024, D-040)")
            }
            out.append(.init(id: assetID, ext: ext, bytes: bytes))
        }
        return out
    }
}

extension DatabaseContentReader {
    /// The assets of document row `documentRow` by id, extension and size, each with its row
    /// (its bytes are not read, Q-064).
    private func readAssetSizes(_ documentRow: Int64, _ id: UUIDBytes) throws -> [DocumentContent.Asset] {
        assetSizes.reset()
        try assetSizes.bind(1, documentRow)
        var out: [DocumentContent.Asset] = []
        while try assetSizes.step() {
            let ext = assetSizes.text(1) ?? ""
            let size = assetSizes.int64(2)
            guard let assetID = UUIDBytes(bytes: assetSizes.blob(0)), PackageLayout.isValidAssetExtension(ext),
                !assetSizes.isNull(2), size <= Int64(Document.assetBytesMax)
            else {
                throw SQLiteContentError("document \(id): an asset has a bad uuid, extension or size (Q-024, D-040)")
            }
            out.append(.init(id: assetID, ext: ext, byteCount: Int(size), blobRow: assetSizes.int64(3)))
        }
        return out
    }
}

/// A row the format cannot hold: the import refuses the document and says why.
public struct SQLiteContentError: Error, CustomStringConvertible, Sendable {
    public var description: String
    init(_ description: String) { self.description = description }
}
