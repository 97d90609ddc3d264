/// `manifest.json` read in one pass over its bytes, for the manifests writers write: every key
/// of D-030 present with its type (`cover` a string or `null`), integers as plain digits.
/// Anything else (a missing key, a wrong type, `1.0`, a number out of range) gives nil, and
/// the caller decodes the file with Foundation's decoder, which says what is wrong. So this
/// reader only accepts manifests that decoder accepts, with the same values; it exists because
/// a library listing reads one manifest per document and that decoder's cost per call would
/// dominate the listing of a thousand documents.
///
/// The bytes must already be JSON as D-082 reads it (`JSONText.start` accepted them), as for
/// `DocumentFileFastRead`, whose scanner it uses. Unknown keys are skipped.
enum ManifestFastRead {
    /// The manifest in `bytes` (JSON accepted by `JSONText.start`, the value from `start` on), or
    /// nil when the fast reader leaves it to Foundation's decoder.
    static func parse(_ bytes: [UInt8], start: Int) -> ManifestFile? {
        bytes.withUnsafeBufferPointer { b in
            var reader = DocumentFileFastRead(b: b, i: start)
            return reader.manifest()
        }
    }
}

extension DocumentFileFastRead {
    fileprivate mutating func manifest() -> ManifestFile? {
        var format: String?, version: UInt64?, id: String?, title: String?, modified: String?, pageCount: UInt64?
        var cover: String?? = .some(nil)  // absent: nil, as Foundation's decodeIfPresent reads it
        let complete = members { reader, key in
            switch key {
            case "format": format = reader.string()
            case "version": version = reader.integer(digitsMax: 9)
            case "id": id = reader.string()
            case "title": title = reader.string()
            case "modified": modified = reader.string()
            // Up to 15 digits: within Int on every platform Swift runs on (64-bit).
            case "pageCount": pageCount = reader.integer(digitsMax: 15)
            case "cover": cover = reader.nullOrString()
            default: return reader.skipValue()
            }
            return true
        }
        guard complete, let format, let version, let id, let title, let modified, let pageCount, let cover,
            let count = Int(exactly: pageCount)
        else { return nil }
        return ManifestFile(
            format: format, version: Int(version), id: id, title: title, modified: modified, pageCount: count,
            cover: cover)
    }

    /// `null` as `.some(nil)`, a string as itself; nil for anything else.
    fileprivate mutating func nullOrString() -> String?? {
        skipSpace()
        guard peek() == UInt8(ascii: "n") else { return string().map { .some($0) } }
        // JSONText accepted the text, so an `n` here starts the literal `null`.
        guard i + 4 <= b.count, b[i + 1] == UInt8(ascii: "u"), b[i + 2] == UInt8(ascii: "l"),
            b[i + 3] == UInt8(ascii: "l")
        else { return nil }
        i += 4
        return .some(nil)
    }
}

extension ManifestFile {
    /// The fields as read (the fast reader's result).
    init(
        format: String, version: Int, id: String, title: String, modified: String, pageCount: Int, cover: String?
    ) {
        self.format = format; self.version = version; self.id = id; self.title = title; self.modified = modified
        self.pageCount = pageCount; self.cover = cover
    }
}
