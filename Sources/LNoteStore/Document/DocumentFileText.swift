import LNoteFormat

/// The text of `document.json` as a writer writes it: keys sorted, two-space indents,
/// `"key" : value`, strings escaped as Foundation's `JSONEncoder` escapes them (`\"`, `\\`,
/// `\/`, `\b \f \n \r \t`, other control characters as `\u00xx`, everything else as its
/// UTF-8). The bytes are those of `JSONEncoder` with `[.prettyPrinted, .sortedKeys]`, written
/// straight into one buffer: the encoder's boxed values cost a document of 2,000 pages
/// milliseconds on every `flush()` that records a change, which a save of one page must not
/// pay in proportion to the pages it did not touch.
enum DocumentFileText {
    static func encode(_ file: DocumentFile) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(320 + file.title.utf8.count * 6 + file.pages.count * 290)
        out.append(contentsOf: "{\n  \"created\" : ".utf8)
        string(file.created, &out)
        out.append(contentsOf: ",\n  \"format\" : ".utf8)
        string(DocumentFile.format, &out)
        out.append(contentsOf: ",\n  \"id\" : \"".utf8)
        uuid(file.id, &out)
        out.append(contentsOf: "\",\n  \"modified\" : ".utf8)
        string(file.modified, &out)
        out.append(contentsOf: ",\n  \"pages\" : [\n".utf8)
        if file.pages.isEmpty { out.append(UInt8(ascii: "\n")) }
        for (i, page) in file.pages.enumerated() {
            out.append(contentsOf: "    {\n      \"created\" : ".utf8)
            string(page.created, &out)
            out.append(contentsOf: ",\n      \"elementCount\" : ".utf8)
            integer(page.elementCount, &out)
            out.append(contentsOf: ",\n      \"height\" : ".utf8)
            integer(Int(page.metadata.height), &out)
            out.append(contentsOf: ",\n      \"id\" : \"".utf8)
            uuid(page.id, &out)
            out.append(contentsOf: "\",\n      \"modified\" : ".utf8)
            string(page.modified, &out)
            out.append(contentsOf: ",\n      \"width\" : ".utf8)
            integer(Int(page.metadata.width), &out)
            out.append(contentsOf: (i == file.pages.count - 1 ? "\n    }\n" : "\n    },\n").utf8)
        }
        out.append(contentsOf: "  ],\n  \"title\" : ".utf8)
        string(file.title, &out)
        out.append(contentsOf: ",\n  \"version\" : ".utf8)
        integer(DocumentFile.version, &out)
        out.append(contentsOf: "\n}".utf8)
        return out
    }

    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// The lower-case canonical form (J-001), as `UUIDBytes.description` writes it.
    static func uuid(_ id: UUIDBytes, _ out: inout [UInt8]) {
        withUnsafeBytes(of: id.storage) { b in
            for i in 0..<16 {
                if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
                out.append(hexDigits[Int(b[i] >> 4)])
                out.append(hexDigits[Int(b[i] & 0x0F)])
            }
        }
    }

    /// Decimal digits, as `JSONEncoder` writes an integer.
    static func integer(_ value: Int, _ out: inout [UInt8]) {
        if value < 0 { out.append(UInt8(ascii: "-")) }
        var magnitude = value.magnitude
        let first = out.count
        repeat {
            out.append(UInt8(ascii: "0") + UInt8(magnitude % 10))
            magnitude /= 10
        } while magnitude > 0
        out[first...].reverse()
    }

    /// A JSON string: `"`, the escaped UTF-8 of `text`, `"`.
    static func string(_ text: String, _ out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        text.withUTF8 { bytes in
            for b in bytes {
                switch b {
                case UInt8(ascii: "\""): out.append(contentsOf: [0x5C, 0x22])
                case UInt8(ascii: "\\"): out.append(contentsOf: [0x5C, 0x5C])
                case UInt8(ascii: "/"): out.append(contentsOf: [0x5C, 0x2F])
                case 0x08: out.append(contentsOf: [0x5C, UInt8(ascii: "b")])
                case 0x0C: out.append(contentsOf: [0x5C, UInt8(ascii: "f")])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0..<0x20:
                    out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0")])
                    out.append(hexDigits[Int(b >> 4)])
                    out.append(hexDigits[Int(b & 0x0F)])
                default: out.append(b)
                }
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
