#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// `trashed.json`, the record of one trash entry (Spec/trash.md T-002 for a page, T-020 for a
/// document): which page or document, when it was deleted, and what a restore puts back.
package struct TrashRecord: Sendable, Equatable {
    package enum Kind: String, Sendable { case page, document }

    package static let fileName = "trashed.json"
    package static let format = "lnote.trashed"
    package static let version = 1
    /// Largest record read (T-002).
    package static let bytesMax = 64 << 10

    package var kind: Kind
    package var id: UUIDBytes
    /// RFC 3339 UTC with milliseconds (D-020).
    package var deletedAt: String
    /// The page's position in the page list when it was deleted (pages only).
    package var index: Int?
    /// The page's `document.json` entry as it was (pages only).
    package var page: DocumentFile.PageEntry?
    package var title: String?

    package init(
        kind: Kind, id: UUIDBytes, deletedAt: String, index: Int? = nil, page: DocumentFile.PageEntry? = nil,
        title: String? = nil
    ) {
        self.kind = kind; self.id = id; self.deletedAt = deletedAt; self.index = index; self.page = page
        self.title = title
    }

    private struct Wire: Codable {
        var format: String
        var version: Int
        var kind: String
        var id: String
        var deletedAt: String
        var index: Double?
        var page: WirePage?
        var title: String?
    }

    private struct WirePage: Codable {
        var id: String
        var width: Double
        var height: Double
        var created: String
        var modified: String
        var elementCount: Double
    }

    /// Canonical JSON bytes (sorted keys, pretty-printed, no byte-order mark).
    package func encoded() -> [UInt8] {
        let wire = Wire(
            format: Self.format, version: Self.version, kind: kind.rawValue, id: id.description,
            deletedAt: deletedAt, index: index.map(Double.init),
            page: page.map {
                WirePage(
                    id: $0.id.description, width: Double($0.metadata.width), height: Double($0.metadata.height),
                    created: $0.created, modified: $0.modified, elementCount: Double($0.elementCount))
            }, title: title)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? Array(encoder.encode(wire))) ?? []
    }

    /// The record `bytes` hold, or nil when they are not a valid record (T-002). Never traps.
    package static func decode(_ bytes: [UInt8]) -> TrashRecord? {
        guard bytes.count <= bytesMax, JSONText.start(bytes) != nil,
            let wire = try? JSONDecoder().decode(Wire.self, from: Data(JSONText.readable(bytes))),
            wire.format == format, wire.version == version, let kind = Kind(rawValue: wire.kind),
            let id = UUIDBytes(string: wire.id), wire.deletedAt.utf8.count <= DocumentFile.timestampBytesMax,
            wire.title.map({ $0.utf8.count <= DocumentFile.titleBytesMax }) ?? true
        else { return nil }
        var record = TrashRecord(kind: kind, id: id, deletedAt: wire.deletedAt, title: wire.title)
        if kind == .page {
            guard let index = wire.index, let at = integer(index, max: Double(FormatLimits.pagesPerDocumentMax)),
                let p = wire.page, UUIDBytes(string: p.id) == id,
                let width = integer(p.width, max: Double(UInt32.max)),
                let height = integer(p.height, max: Double(UInt32.max)),
                let count = integer(p.elementCount, max: 9_007_199_254_740_992),
                [p.created, p.modified].allSatisfy({ $0.utf8.count <= DocumentFile.timestampBytesMax })
            else { return nil }
            record.index = at
            record.page = DocumentFile.PageEntry(
                id: id, metadata: PageMetadata(width: UInt32(width), height: UInt32(height)), created: p.created,
                modified: p.modified, elementCount: count)
        }
        return record
    }

    /// `value` as an integer in `0 ... max`, or nil (D-081: a whole number however written).
    private static func integer(_ value: Double, max: Double) -> Int? {
        guard value.rounded() == value, value >= 0, value <= max else { return nil }
        return Int(value)
    }

    /// When the entry was deleted, nil when the text is not a D-020 time.
    package var deletedDate: Date? { Timestamp.date(from: deletedAt) }
}
