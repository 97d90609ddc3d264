/// The fields of a `document.json` read in one pass over its bytes, for the files writers
/// write: every key of D-024 present with its type, integers as plain digits. Anything else
/// (a missing key, a wrong type, `6.12e3`, a number out of range) gives nil, and the caller
/// decodes the file with Foundation's decoder, which says what is wrong (D-025) and reads the
/// rarer spellings D-081 allows. So this reader only ever accepts files that decoder accepts,
/// with the same values; it exists because that decoder costs a 2,000-page document
/// milliseconds on every open, and opening page 0 must not pay for the pages it does not read.
///
/// The bytes must already be JSON as D-082 reads it (`JSONText.start` accepted them): no
/// repeated names, valid UTF-8, escapes and nesting within bounds. Unknown keys are skipped.
/// `ManifestFastRead` reads manifest.json with the same scanner.
struct DocumentFileFastRead {
    struct Page: Equatable {
        var id: String
        var width: UInt32
        var height: UInt32
        var created: String
        var modified: String
        var elementCount: Int
    }

    struct Fields: Equatable {
        var format: String
        var version: Int
        var id: String
        var title: String
        var created: String
        var modified: String
        var pages: [Page]
    }

    /// The fields of `bytes` (JSON accepted by `JSONText.start`, the value from `start` on),
    /// or nil when the fast reader leaves them to Foundation's decoder.
    static func parse(_ bytes: [UInt8], start: Int) -> Fields? {
        bytes.withUnsafeBufferPointer { b in
            var reader = DocumentFileFastRead(b: b, i: start)
            return reader.document()
        }
    }

    let b: UnsafeBufferPointer<UInt8>
    var i: Int

    init(b: UnsafeBufferPointer<UInt8>, i: Int) { self.b = b; self.i = i }

    private mutating func document() -> Fields? {
        var format: String?, version: Int?, id: String?, title: String?, created: String?, modified: String?
        var pages: [Page]?
        let complete = members { reader, key in
            switch key {
            case "format": format = reader.string()
            case "version": version = reader.integer(digitsMax: 9).map { Int($0) }
            case "id": id = reader.string()
            case "title": title = reader.string()
            case "created": created = reader.string()
            case "modified": modified = reader.string()
            case "pages":
                pages = reader.pageList()
                return pages != nil
            default: return reader.skipValue()
            }
            return true
        }
        guard complete, let format, let version, let id, let title, let created, let modified, let pages else {
            return nil
        }
        return Fields(
            format: format, version: version, id: id, title: title, created: created, modified: modified, pages: pages)
    }

    private mutating func pageList() -> [Page]? {
        skipSpace()
        guard next() == UInt8(ascii: "[") else { return nil }
        var pages: [Page] = []
        skipSpace()
        if peek() == UInt8(ascii: "]") {
            i += 1
            return pages
        }
        while true {
            guard let page = page() else { return nil }
            pages.append(page)
            skipSpace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "]"): return pages
            default: return nil
            }
        }
    }

    private mutating func page() -> Page? {
        var id: String?, width: UInt64?, height: UInt64?, created: String?, modified: String?, count: UInt64?
        let complete = members { reader, key in
            switch key {
            case "id": id = reader.string()
            case "width": width = reader.integer(digitsMax: 10)
            case "height": height = reader.integer(digitsMax: 10)
            case "created": created = reader.string()
            case "modified": modified = reader.string()
            // Up to 2^53: every such integer is a double exactly, the value D-082 reads.
            case "elementCount": count = reader.integer(digitsMax: 16).flatMap { $0 <= 1 << 53 ? $0 : nil }
            default: return reader.skipValue()
            }
            return true
        }
        guard complete, let id, let width, let height, let created, let modified, let count,
            let w = UInt32(exactly: width), let h = UInt32(exactly: height)
        else { return nil }
        return Page(id: id, width: w, height: h, created: created, modified: modified, elementCount: Int(count))
    }

    /// Reads one object, calling `member` with each name (the reader at its value); false when
    /// the bytes are not an object or `member` returned false.
    mutating func members(_ member: (inout DocumentFileFastRead, String) -> Bool) -> Bool {
        skipSpace()
        guard next() == UInt8(ascii: "{") else { return false }
        skipSpace()
        if peek() == UInt8(ascii: "}") {
            i += 1
            return true
        }
        while true {
            skipSpace()
            guard let key = string() else { return false }
            skipSpace()
            guard next() == UInt8(ascii: ":") else { return false }
            guard member(&self, key) else { return false }
            skipSpace()
            switch next() {
            case UInt8(ascii: ","): continue
            case UInt8(ascii: "}"): return true
            default: return false
            }
        }
    }

    func peek() -> UInt8? { i < b.count ? b[i] : nil }

    mutating func next() -> UInt8? {
        guard i < b.count else { return nil }
        defer { i += 1 }
        return b[i]
    }

    mutating func skipSpace() {
        while i < b.count, b[i] == 0x20 || b[i] == 0x0A || b[i] == 0x0D || b[i] == 0x09 { i += 1 }
    }

    /// A number written as plain digits (no sign, fraction or exponent), at most `digitsMax` of
    /// them; nil for anything else.
    mutating func integer(digitsMax: Int) -> UInt64? {
        skipSpace()
        var value: UInt64 = 0
        let first = i
        while i < b.count, b[i] >= UInt8(ascii: "0"), b[i] <= UInt8(ascii: "9") {
            guard i - first < digitsMax else { return nil }
            value = value * 10 + UInt64(b[i] - UInt8(ascii: "0"))
            i += 1
        }
        guard i > first, let after = peek(), after != UInt8(ascii: "."), after != UInt8(ascii: "e"),
            after != UInt8(ascii: "E")
        else { return nil }
        return value
    }

    /// A string, escapes undone; nil when the value is not a string.
    mutating func string() -> String? {
        skipSpace()
        guard next() == UInt8(ascii: "\"") else { return nil }
        let first = i
        while i < b.count, b[i] != UInt8(ascii: "\""), b[i] != UInt8(ascii: "\\") { i += 1 }
        guard i < b.count else { return nil }
        if b[i] == UInt8(ascii: "\"") {
            defer { i += 1 }
            return String(decoding: UnsafeBufferPointer(rebasing: b[first..<i]), as: UTF8.self)
        }
        var out = Array(b[first..<i])
        while i < b.count {
            let c = b[i]
            i += 1
            switch c {
            case UInt8(ascii: "\""): return String(decoding: out, as: UTF8.self)
            case UInt8(ascii: "\\"):
                guard let e = next() else { return nil }
                switch e {
                case UInt8(ascii: "b"): out.append(0x08)
                case UInt8(ascii: "f"): out.append(0x0C)
                case UInt8(ascii: "n"): out.append(0x0A)
                case UInt8(ascii: "r"): out.append(0x0D)
                case UInt8(ascii: "t"): out.append(0x09)
                case UInt8(ascii: "u"):
                    guard var scalar = hex4() else { return nil }
                    if (0xD800...0xDBFF).contains(scalar) {
                        // D-082: a high surrogate is followed at once by `\u` and a low one.
                        guard next() == UInt8(ascii: "\\"), next() == UInt8(ascii: "u"), let low = hex4(),
                            (0xDC00...0xDFFF).contains(low)
                        else { return nil }
                        scalar = 0x10000 + ((scalar - 0xD800) << 10) + (low - 0xDC00)
                    }
                    guard let s = Unicode.Scalar(scalar) else { return nil }
                    out.append(contentsOf: String(Character(s)).utf8)
                default: out.append(e)  // \" \\ \/
                }
            default: out.append(c)
            }
        }
        return nil
    }

    mutating func hex4() -> UInt32? {
        guard i + 4 <= b.count else { return nil }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = b[i]
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): d = c - UInt8(ascii: "A") + 10
            default: return nil
            }
            v = v << 4 | UInt32(d)
            i += 1
        }
        return v
    }

    /// Skips one value of any kind (nesting is bounded by D-082's depth, checked before).
    mutating func skipValue() -> Bool {
        skipSpace()
        guard let c = peek() else { return false }
        switch c {
        case UInt8(ascii: "\""): return string() != nil
        case UInt8(ascii: "{"): return members { reader, _ in reader.skipValue() }
        case UInt8(ascii: "["):
            i += 1
            skipSpace()
            if peek() == UInt8(ascii: "]") {
                i += 1
                return true
            }
            while true {
                guard skipValue() else { return false }
                skipSpace()
                switch next() {
                case UInt8(ascii: ","): continue
                case UInt8(ascii: "]"): return true
                default: return false
                }
            }
        default:
            // A number or a literal: up to the next delimiter.
            let first = i
            while i < b.count, ![0x20, 0x0A, 0x0D, 0x09, 0x2C, 0x5D, 0x7D].contains(b[i]) { i += 1 }
            return i > first
        }
    }
}
