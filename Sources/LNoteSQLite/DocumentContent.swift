import LNoteFormat
import LNoteStore

/// Everything of one document that moves between a package and the database: the
/// document's id, title and times, its pages in order with their canvas, times and elements in
/// z-order, and its asset files. Thumbnails (derived, D-050), `lost+found/` and the lock are
/// not content.
public struct DocumentContent: Sendable, Equatable {
    public struct PageContent: Sendable, Equatable {
        /// The page's id and times; its canvas and element count are `state`'s.
        private var page: DocumentFile.PageEntry
        /// Canvas and elements in z-order.
        public var state: PageState

        /// The `document.json` entry: `entry`'s cached canvas and element count (D-021, D-023)
        /// are replaced by `state`'s, so two pages compare equal exactly when their content does.
        package init(entry: DocumentFile.PageEntry, state: PageState) {
            page = DocumentFile.PageEntry(
                id: entry.id, metadata: .letter, created: entry.created, modified: entry.modified,
                elementCount: 0)
            self.state = state
        }

        /// The page's `document.json` entry, canvas and element count from `state`.
        package var entry: DocumentFile.PageEntry {
            var e = page
            e.metadata = state.metadata
            e.elementCount = state.elements.count
            return e
        }
    }

    public struct Asset: Sendable, Equatable {
        package var id: UUIDBytes
        public var ext: String
        /// The asset's bytes; empty for an asset read by its size only (`byteCount`), whose
        /// bytes are streamed when written and compared in chunks.
        public var bytes: [UInt8]
        /// The asset's size in bytes.
        package var byteCount: Int
        /// The `assets` row its bytes stream from, for an asset read by its size only.
        package var blobRow: Int64?
        /// The package file its bytes stream from, for an asset read by its size only.
        package var filePath: String?

        package init(id: UUIDBytes, ext: String, bytes: [UInt8]) {
            self.id = id; self.ext = ext; self.bytes = bytes; byteCount = bytes.count
        }

        /// An asset known by its size, its bytes left where they are (the database row
        /// `blobRow`, or the package's file).
        package init(id: UUIDBytes, ext: String, byteCount: Int, blobRow: Int64?) {
            self.id = id; self.ext = ext; bytes = []; self.byteCount = byteCount; self.blobRow = blobRow
        }

        /// Equal ids, extensions, sizes and held bytes (where the bytes are not held, the
        /// caller compares them in chunks).
        public static func == (a: Asset, b: Asset) -> Bool {
            a.id == b.id && a.ext == b.ext && a.byteCount == b.byteCount && a.bytes == b.bytes
        }
    }

    package var id: UUIDBytes
    public var title: String
    public var created: String
    public var modified: String
    public var pages: [PageContent]
    /// Sorted by id.
    public var assets: [Asset]

    package init(id: UUIDBytes, title: String, created: String, modified: String, pages: [PageContent], assets: [Asset])
    {
        self.id = id; self.title = title; self.created = created; self.modified = modified
        self.pages = pages; self.assets = assets.sorted { $0.id < $1.id }
    }

    /// Bytes of points BLOBs (16 a point), angles BLOBs and assets: what the progress MB/s counts.
    public var payloadBytes: Int {
        var n = assets.reduce(0) { $0 + $1.byteCount }
        for page in pages {
            for case .stroke(let s) in page.state.elements {
                n += s.pointCount * (PointBlob.pointBytes + (s.hasAngles ? PointBlob.angleBytes : 0))
            }
        }
        return n
    }

    /// `document.json` for this content.
    var documentFile: DocumentFile {
        DocumentFile(id: id, title: title, created: created, modified: modified, pages: pages.map(\.entry))
    }
}
