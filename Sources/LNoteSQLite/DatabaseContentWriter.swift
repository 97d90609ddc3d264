import LNoteFormat
import LNoteStore

/// Writes documents into the database, one transaction each: the document's old rows,
/// if any, are deleted (the cascade removes its pages, elements and assets) and the new ones
/// inserted before `COMMIT`, so the database holds the whole old document, the whole new one,
/// or, for a new document, nothing.
final class DatabaseContentWriter {
    private let db: SQLiteConnection
    private let deleteDocument, insertDocument, insertPage, insertAsset, insertStroke, insertImage: SQLiteStatement

    private let fs: any FileSystem

    init(_ db: SQLiteConnection, fileSystem: any FileSystem = POSIXFileSystem.shared) throws {
        self.db = db
        fs = fileSystem
        deleteDocument = try db.prepare("DELETE FROM documents WHERE uuid = ?1")
        insertDocument = try db.prepare(
            "INSERT INTO documents (uuid, title, created, modified) VALUES (?1, ?2, ?3, ?4)")
        insertPage = try db.prepare(
            """
            INSERT INTO pages (documentId, uuid, position, width, height, created, modified)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
            """)
        insertAsset = try db.prepare(
            "INSERT INTO assets (documentId, uuid, ext, byteCount, bytes) VALUES (?1, ?2, ?3, ?4, ?5)")
        insertStroke = try db.prepare(
            """
            INSERT INTO strokes (pageId, uuid, zIndex, inkType, color, width, transformA, transformB, transformC,
                                 transformD, transformTx, transformTy, pointCount, points, angles)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
        insertImage = try db.prepare(
            """
            INSERT INTO images (pageId, uuid, zIndex, assetUuid, assetId, x, y, width, height, transformA, transformB,
                                transformC, transformD, transformTx, transformTy)
            VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
            """)
    }

    /// Replaces document `content.id` by `content` in one transaction (durable at COMMIT with
    /// synchronous=FULL, Q-040).
    func write(_ content: DocumentContent) throws {
        try db.transaction {
            try run(deleteDocument) { try $0.bind(1, content.id.bytes) }
            try run(insertDocument) { s in
                try s.bind(1, content.id.bytes); try s.bind(2, content.title)
                try s.bind(3, content.created); try s.bind(4, content.modified)
            }
            let documentRow = db.lastInsertRowID
            var assetRows: [UUIDBytes: Int64] = [:]
            for asset in content.assets {
                try run(insertAsset) { s in
                    try s.bind(1, documentRow); try s.bind(2, asset.id.bytes); try s.bind(3, asset.ext)
                    try s.bind(4, asset.byteCount)
                    if asset.filePath != nil {
                        try s.bindZeroBlob(5, count: asset.byteCount)
                    } else {
                        try s.bind(5, asset.bytes)
                    }
                }
                let row = db.lastInsertRowID
                if let path = asset.filePath { try stream(path, size: asset.byteCount, toRow: row) }
                assetRows[asset.id] = row
            }
            for (position, page) in content.pages.enumerated() {
                try run(insertPage) { s in
                    try s.bind(1, documentRow); try s.bind(2, page.entry.id.bytes); try s.bind(3, position)
                    try s.bind(4, Int64(page.state.metadata.width)); try s.bind(5, Int64(page.state.metadata.height))
                    try s.bind(6, page.entry.created); try s.bind(7, page.entry.modified)
                }
                let pageRow = db.lastInsertRowID
                for (z, element) in page.state.elements.enumerated() {
                    switch element {
                    case .stroke(let stroke): try write(stroke, page: pageRow, z: z)
                    case .image(let image): try write(image, page: pageRow, z: z, assetRow: assetRows[image.assetKey])
                    }
                }
            }
        }
    }

    /// the asset file `path` into the zero BLOB of `assets` row `row`, a chunk at a time
    /// (`sqlite3_blob_write`). A file whose size changed since it was read is refused.
    private func stream(_ path: String, size: Int, toRow row: Int64) throws {
        let f = try fs.open(path, .readOnly)
        defer { try? fs.close(f) }
        var offset: Int64 = 0
        try db.writeBlob(table: "assets", column: "bytes", row: row) { buffer in
            let n = try fs.read(f, at: offset, into: buffer)
            offset += Int64(n)
            return n
        }
        guard try fs.size(f) == Int64(size) else {
            throw SQLiteContentError("\(path) changed size while exported (\(size) bytes when read)")
        }
    }

    private func write(_ stroke: Stroke, page: Int64, z: Int) throws {
        let points = stroke.points
        try run(insertStroke) { s in
            try s.bind(1, page); try s.bind(2, stroke.key.bytes); try s.bind(3, z); try s.bind(4, stroke.ink.type)
            try s.bind(5, Int64(Self.color(stroke.ink))); try s.bind(6, Int64(stroke.ink.width))
            try Self.bind(stroke.transform, at: 7, s)
            try s.bind(13, points.count)
            try s.bind(14, PointBlob.encode(points))
            if stroke.hasAngles { try s.bind(15, PointBlob.encodeAngles(points)) } else { try s.bindNull(15) }
        }
    }

    private func write(_ image: ImageElement, page: Int64, z: Int, assetRow: Int64?) throws {
        if let shown = image.page {  // refused whole rather than stored without it
            throw SQLiteContentError(
                "image \(image.key) shows page \(shown) of asset \(image.assetKey) (E-014), which this schema version "
                    + "cannot hold; the document is not exported (Q-066)")
        }
        try run(insertImage) { s in
            try s.bind(1, page); try s.bind(2, image.key.bytes); try s.bind(3, z); try s.bind(4, image.assetKey.bytes)
            if let assetRow { try s.bind(5, assetRow) } else { try s.bindNull(5) }
            try s.bind(6, Int64(image.x)); try s.bind(7, Int64(image.y))
            try s.bind(8, Int64(image.width)); try s.bind(9, Int64(image.height))
            try Self.bind(image.transform, at: 10, s)
        }
    }

    /// `0xRRGGBBAA`.
    static func color(_ ink: Ink) -> UInt32 {
        UInt32(ink.red) << 24 | UInt32(ink.green) << 16 | UInt32(ink.blue) << 8 | UInt32(ink.alpha)
    }

    /// Six REAL columns from `first` on, or six NULLs. A `Float` is exact as a REAL.
    static func bind(_ t: Transform?, at first: Int32, _ s: SQLiteStatement) throws {
        guard let t else {
            for i in 0..<Int32(6) { try s.bindNull(first + i) }
            return
        }
        for (i, v) in [t.a, t.b, t.c, t.d, t.tx, t.ty].enumerated() { try s.bind(first + Int32(i), Double(v)) }
    }

    private func run(_ s: SQLiteStatement, _ bind: (SQLiteStatement) throws -> Void) throws {
        s.reset()
        try bind(s)
        try s.step()
    }
}
