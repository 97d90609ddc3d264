#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// `document.json` version 1 (spec 10.1): the source of truth for a document's title and pages.
package struct DocumentFile: Sendable, Equatable {
    public struct PageEntry: Sendable, Equatable {
        public internal(set) var id: UUIDBytes
        public var metadata: PageMetadata
        public internal(set) var created: String
        public internal(set) var modified: String
        public var elementCount: Int

        public init(id: UUIDBytes, metadata: PageMetadata, created: String, modified: String, elementCount: Int) {
            self.id = id; self.metadata = metadata; self.created = created; self.modified = modified
            self.elementCount = elementCount
        }
    }

    /// The `format` value (D-020).
    public static let format = "lnote.document"
    /// The `version` value (D-020).
    public static let version = 1
    /// Longest title in UTF-8 bytes (D-020, D-024).
    public static let titleBytesMax = 1024
    /// Longest accepted time string (D-024; an RFC 3339 time needs 24 bytes).
    public static let timestampBytesMax = 64

    public var id: UUIDBytes
    public internal(set) var title: String
    public internal(set) var created: String
    public internal(set) var modified: String
    public var pages: [PageEntry]

    public init(id: UUIDBytes, title: String, created: String, modified: String, pages: [PageEntry]) {
        self.id = id; self.title = title; self.created = created; self.modified = modified; self.pages = pages
    }

    private struct Wire: Codable {
        var format: String
        var version: Int
        var id: String
        var title: String
        var created: String
        var modified: String
        var pages: [WirePage]

        init(_ f: DocumentFileFastRead.Fields) {
            format = f.format; version = f.version; id = f.id; title = f.title; created = f.created
            modified = f.modified; pages = f.pages.map(WirePage.init)
        }
    }

    private struct WirePage: Codable {
        init(_ p: DocumentFileFastRead.Page) {
            self.init(
                id: p.id, width: p.width, height: p.height, created: p.created, modified: p.modified,
                elementCount: p.elementCount)
        }

        var id: String
        var width: UInt32
        var height: UInt32
        var created: String
        var modified: String
        var elementCount: Int

        enum CodingKeys: String, CodingKey { case id, width, height, created, modified, elementCount }

        init(id: String, width: UInt32, height: UInt32, created: String, modified: String, elementCount: Int) {
            self.id = id; self.width = width; self.height = height; self.created = created; self.modified = modified
            self.elementCount = elementCount
        }

        /// Numbers are read as doubles and range-checked here, so an out-of-range value is
        /// reported with its field and value (D-025) instead of the decoder's top-level failure.
        init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            id = try c.decode(String.self, forKey: .id)
            width = UInt32(try Self.integer(c, .width, max: Double(UInt32.max)))
            height = UInt32(try Self.integer(c, .height, max: Double(UInt32.max)))
            created = try c.decode(String.self, forKey: .created)
            modified = try c.decode(String.self, forKey: .modified)
            elementCount = Int(try Self.integer(c, .elementCount, max: 9_007_199_254_740_992))
        }

        private static func integer(
            _ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys, max: Double
        ) throws -> Double {
            let value = try c.decode(Double.self, forKey: key)
            guard value.rounded() == value, value >= 0, value <= max else {
                let shown =
                    value.rounded() == value && abs(value) < 1e18
                    ? String(Int64(value))
                    // JSONText.readable writes 1e400 as 1e308
                    : abs(value) >= 1e308 ? "beyond a double's range" : "\(value)"
                throw DecodingError.dataCorruptedError(
                    forKey: key, in: c,
                    debugDescription: "value \(shown) is not an integer in 0...\(Int64(max))")
            }
            return value
        }
    }

    /// Canonical JSON bytes (sorted keys, pretty-printed; `DocumentFileText`). Cost: one pass
    /// over the pages into one buffer.
    public func encoded() -> [UInt8] { DocumentFileText.encode(self) }

    /// Parses and validates (D-010, D-011, D-020; the JSON as D-082 reads it). Throws `LNoteError.corrupt` with the reason.
    public static func decode(_ bytes: [UInt8], file: String = documentFileName) throws -> DocumentFile {
        guard bytes.count <= FormatLimits.documentJSONBytesMax else {
            throw LNoteError(
                .corrupt, "document.json is \(bytes.count) bytes; limit \(FormatLimits.documentJSONBytesMax)",
                file: file)
        }
        guard let start = JSONText.start(bytes) else {
            throw LNoteError(.corrupt, "document.json does not parse: " + (JSONText.problem(bytes) ?? ""), file: file)
        }
        let wire: Wire
        if let fields = DocumentFileFastRead.parse(bytes, start: start) {
            wire = Wire(fields)
        } else {
            // Foundation's decoder skips the byte-order mark D-082 ignores.
            do { wire = try JSONDecoder().decode(Wire.self, from: Data(JSONText.readable(bytes))) } catch {
                throw LNoteError(.corrupt, "document.json does not parse: \(describeDecodingError(error))", file: file)
            }
        }
        guard wire.format == format else {
            throw LNoteError(.corrupt, "format is '\(wire.format)', expected '\(format)'", file: file)
        }
        guard wire.version == version else {
            throw LNoteError(.corrupt, "unsupported version \(wire.version)", file: file)
        }
        guard let id = UUIDBytes(string: wire.id) else {
            throw LNoteError(.invalidPath, "document id '\(wire.id)' is not a UUID", file: file)
        }
        guard wire.title.utf8.count <= titleBytesMax else {
            throw LNoteError(.corrupt, "title longer than \(titleBytesMax) bytes", file: file)
        }
        guard [wire.created, wire.modified].allSatisfy({ $0.utf8.count <= timestampBytesMax }) else {
            throw LNoteError(.corrupt, "timestamp longer than \(timestampBytesMax) bytes", file: file)
        }
        guard wire.pages.count <= FormatLimits.pagesPerDocumentMax else {
            throw LNoteError(
                .corrupt, "\(wire.pages.count) pages; at most \(FormatLimits.pagesPerDocumentMax)", file: file)
        }
        var seen = Set<UUIDBytes>()
        var pages: [PageEntry] = []
        for p in wire.pages {
            guard let pid = UUIDBytes(string: p.id) else {
                throw LNoteError(.invalidPath, "page id '\(p.id)' is not a UUID", file: file)
            }
            guard seen.insert(pid).inserted else {
                throw LNoteError(.corrupt, "page \(pid) is listed twice", file: file)
            }
            guard p.elementCount >= 0 else { throw LNoteError(.corrupt, "negative element count", file: file) }
            guard [p.created, p.modified].allSatisfy({ $0.utf8.count <= timestampBytesMax }) else {
                throw LNoteError(.corrupt, "timestamp longer than \(timestampBytesMax) bytes", file: file)
            }
            pages.append(
                PageEntry(
                    id: pid, metadata: PageMetadata(width: p.width, height: p.height), created: p.created,
                    modified: p.modified, elementCount: p.elementCount))
        }
        return DocumentFile(id: id, title: wire.title, created: wire.created, modified: wire.modified, pages: pages)
    }

    public static let documentFileName = PackageLayout.documentFileName
}

/// A JSON decoding failure as one sentence naming the field and, where the decoder says it, the
/// value (`field pages[0].width: Parsed JSON number <4294967296> does not fit in UInt32.`),
/// instead of the decoder's debug dump (D-025).
func describeDecodingError(_ error: any Error) -> String {
    guard let e = error as? DecodingError else { return "\(error)" }
    func field(_ path: [any CodingKey]) -> String {
        var s = ""
        for key in path {
            if let i = key.intValue { s += "[\(i)]" } else { s += (s.isEmpty ? "" : ".") + key.stringValue }
        }
        return s.isEmpty ? "(top level)" : s
    }
    switch e {
    case .typeMismatch(let type, let c): return "field \(field(c.codingPath)): expected \(type)"
    case .valueNotFound(let type, let c): return "field \(field(c.codingPath)): missing \(type) value"
    case .keyNotFound(let key, let c): return "missing field \(field(c.codingPath + [key]))"
    case .dataCorrupted(let c):
        var why = c.debugDescription
        if let underlying = c.underlyingError { why += " (\(underlying))" }
        return "field \(field(c.codingPath)): \(why)"
    @unknown default: return "\(e)"
    }
}

/// `manifest.json` version 1 (spec 10.2): what a library listing needs, a cache of document.json.
package struct ManifestFile: Sendable, Equatable, Codable {
    public internal(set) var format: String
    public internal(set) var version: Int
    public internal(set) var id: String
    public var title: String
    public internal(set) var modified: String
    public var pageCount: Int
    public internal(set) var cover: String?

    public static let formatName = "lnote.manifest"

    /// The manifest that `document` implies (D-030).
    public init(document: DocumentFile) {
        format = Self.formatName
        version = 1
        id = document.id.description
        title = document.title
        modified = document.modified
        pageCount = document.pages.count
        cover = document.pages.first.map { "thumbnails/" + PackageLayout.thumbnailName($0.id) }
    }

    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return (try? Array(encoder.encode(self))) ?? []
    }

    /// Parses a manifest; nil when it is unusable (too large, not JSON as D-082 reads it, unparseable,
    /// other version: D-031).
    /// Cost: one validating pass and one reading pass over the bytes (`ManifestFastRead`);
    /// Foundation's decoder only for a manifest no writer writes.
    public static func decode(_ bytes: [UInt8]) -> ManifestFile? {
        guard bytes.count <= FormatLimits.manifestJSONBytesMax, let start = JSONText.start(bytes),
            let m = ManifestFastRead.parse(bytes, start: start)
                ?? (try? JSONDecoder().decode(ManifestFile.self, from: Data(JSONText.readable(bytes)))),
            m.format == formatName, m.version == 1, UUIDBytes(string: m.id) != nil, m.pageCount >= 0
        else { return nil }
        if let cover = m.cover {
            // The cover must name a thumbnail inside the package (D-001).
            let name = cover.hasPrefix("thumbnails/") ? String(cover.dropFirst("thumbnails/".count)) : ""
            guard name.hasSuffix(".png"), UUIDBytes(string: String(name.dropLast(4))) != nil else { return nil }
        }
        return m
    }

    /// True when this manifest agrees with `document` on everything it caches (D-031).
    public func agrees(with document: DocumentFile) -> Bool {
        self == ManifestFile(document: document)
    }
}

/// RFC 3339 UTC timestamps with milliseconds (D-020), e.g. `2026-11-29T23:03:18.123Z`.
package enum Timestamp {
    public static func now() -> String { string(from: Date()) }

    /// `date` in whole milliseconds since 1970, rounded down, saturating far outside any
    /// clock's range. A date made from a millisecond count (`Double(ms) / 1000`) gives that
    /// count back: the division can land a hair below the millisecond, and a plain floor would
    /// then name the one before, so a value within a microsecond of a boundary is that
    /// boundary.
    package static func milliseconds(_ date: Date) -> Int64 {
        let exact = date.timeIntervalSince1970 * 1000
        let nearest = exact.rounded()
        let ms = abs(exact - nearest) < 0.001 ? nearest : exact.rounded(.down)
        if !(ms > -9.2e18) { return .min }
        if !(ms < 9.2e18) { return .max }
        return Int64(ms)
    }

    public static func string(from date: Date) -> String {
        let ms = milliseconds(date)
        let days = ms >= 0 ? ms / 86_400_000 : (ms - 86_399_999) / 86_400_000
        let msOfDay = ms - days * 86_400_000
        let (y, m, d) = civil(fromDays: days)
        let h = msOfDay / 3_600_000, mi = (msOfDay / 60_000) % 60, s = (msOfDay / 1000) % 60, f = msOfDay % 1000
        func two(_ v: Int64) -> String { v < 10 ? "0\(v)" : "\(v)" }
        func three(_ v: Int64) -> String { v < 10 ? "00\(v)" : v < 100 ? "0\(v)" : "\(v)" }
        return "\(y)-\(two(m))-\(two(d))T\(two(h)):\(two(mi)):\(two(s)).\(three(f))Z"
    }

    /// Days since 1970-01-01 to a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func civil(fromDays z0: Int64) -> (Int64, Int64, Int64) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (m <= 2 ? y + 1 : y, m, d)
    }
}
