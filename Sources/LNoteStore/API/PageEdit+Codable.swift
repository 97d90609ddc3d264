#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// An edit kept for undo across launches: `PageEdit` encodes its changes as the frame bodies the
/// journal stores (Spec/format.md 3.1 and 6.3), each with its frame type, so an edit saved by
/// one version of the app reads back exactly in another. Decoding checks every body as a
/// journal reader does and throws `DecodingError.dataCorrupted` for one that is not a valid
/// page change: a saved edit is input, never trusted.
///
/// An edit decoded after the document was reopened is checked against the page like any change
/// the app makes, before anything is written: when an element it names is no longer on the page
/// it throws `notFound`, when it would append an id the page already holds it throws
/// `duplicateElement`, and in both cases the page is unchanged. An app whose undo stack may be
/// older than the page (another device's edits synced in) drops the entry on either error.
extension PageEdit: Codable {
    private enum Key: String, CodingKey { case page, changes, inverse, removed }

    /// One change as stored: its frame type and body.
    private struct StoredChange: Codable {
        var type: UInt8
        var body: Data

        init(_ change: PageChange) {
            let (type, body) = PageChangeCodec.encode(change)
            self.type = type.rawValue
            self.body = Data(body)
        }

        func change(_ decoder: any Decoder) throws -> PageChange {
            do {
                return try PageChangeCodec.decode(type: type, body: ArraySlice([UInt8](body)), points: .eager)
            } catch {
                throw DecodingError.dataCorrupted(
                    .init(
                        codingPath: decoder.codingPath,
                        debugDescription: "not a page change: \(error)"))
            }
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        try c.encode(pageID.description, forKey: .page)
        try c.encode(changes.map(StoredChange.init), forKey: .changes)
        try c.encode(inverse.map(StoredChange.init), forKey: .inverse)
        try c.encode(removed.map { StoredChange(.append($0)) }, forKey: .removed)
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Key.self)
        let text = try c.decode(String.self, forKey: .page)
        guard let page = UUIDBytes(string: text) else {
            throw DecodingError.dataCorruptedError(forKey: .page, in: c, debugDescription: "not a page id: \(text)")
        }
        func list(_ key: Key) throws -> [PageChange] {
            try c.decode([StoredChange].self, forKey: key).map { try $0.change(decoder) }
        }
        let removed = try list(.removed).map { change -> Element in
            guard case .append(let element) = change else {
                throw DecodingError.dataCorruptedError(forKey: .removed, in: c, debugDescription: "not an element")
            }
            return element
        }
        self.init(pageID: page, changes: try list(.changes), inverse: try list(.inverse), removed: removed)
    }
}
