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
        // An upper bound of the bytes: every string byte escaped to six (`\u00xx`).
        var bound = 320 + file.title.utf8.count * 6 + file.created.utf8.count * 6 + file.modified.utf8.count * 6
        for page in file.pages { bound += 300 + (page.created.utf8.count + page.modified.utf8.count) * 6 }
        return [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            guard let base = buffer.baseAddress else {  // never: the bound is over 300
                count = 0
                return
            }
            var w = Writer(base: base, at: 0)
            w.text("{\n  \"created\" : ")
            w.string(file.created)
            w.text(",\n  \"format\" : ")
            w.string(DocumentFile.format)
            w.text(",\n  \"id\" : \"")
            w.uuid(file.id)
            w.text("\",\n  \"modified\" : ")
            w.string(file.modified)
            w.text(",\n  \"pages\" : [\n")
            if file.pages.isEmpty { w.text("\n") }
            for (i, page) in file.pages.enumerated() {
                w.text("    {\n      \"created\" : ")
                w.string(page.created)
                w.text(",\n      \"elementCount\" : ")
                w.integer(page.elementCount)
                w.text(",\n      \"height\" : ")
                w.integer(Int(page.metadata.height))
                w.text(",\n      \"id\" : \"")
                w.uuid(page.id)
                w.text("\",\n      \"modified\" : ")
                w.string(page.modified)
                w.text(",\n      \"width\" : ")
                w.integer(Int(page.metadata.width))
                w.text(i == file.pages.count - 1 ? "\n    }\n" : "\n    },\n")
            }
            w.text("  ],\n  \"title\" : ")
            w.string(file.title)
            w.text(",\n  \"version\" : ")
            w.integer(DocumentFile.version)
            w.text("\n}")
            count = w.at
        }
    }

    /// Writes into memory the caller sized for everything written (`encode`'s bound).
    struct Writer {
        let base: UnsafeMutablePointer<UInt8>
        var at: Int

        mutating func byte(_ b: UInt8) {
            base[at] = b
            at += 1
        }

        mutating func text(_ s: StaticString) {
            (base + at).update(from: s.utf8Start, count: s.utf8CodeUnitCount)
            at += s.utf8CodeUnitCount
        }

        private static let hexDigits: StaticString = "0123456789abcdef"

        private mutating func hex(_ b: UInt8) {
            byte(Self.hexDigits.utf8Start[Int(b >> 4)])
            byte(Self.hexDigits.utf8Start[Int(b & 0x0F)])
        }

        /// The lower-case canonical form (J-001), as `UUIDBytes.description` writes it.
        mutating func uuid(_ id: UUIDBytes) {
            withUnsafeBytes(of: id.storage) { b in
                for i in 0..<16 {
                    if i == 4 || i == 6 || i == 8 || i == 10 { byte(UInt8(ascii: "-")) }
                    hex(b[i])
                }
            }
        }

        /// Decimal digits, as `JSONEncoder` writes an integer.
        mutating func integer(_ value: Int) {
            if value < 0 { byte(UInt8(ascii: "-")) }
            var magnitude = value.magnitude
            let first = at
            repeat {
                byte(UInt8(ascii: "0") + UInt8(magnitude % 10))
                magnitude /= 10
            } while magnitude > 0
            var (lo, hi) = (first, at - 1)
            while lo < hi {
                (base[lo], base[hi]) = (base[hi], base[lo])
                lo += 1
                hi -= 1
            }
        }

        /// A JSON string: `"`, the escaped UTF-8 of `text`, `"`.
        mutating func string(_ value: String) {
            byte(UInt8(ascii: "\""))
            var value = value
            value.withUTF8 { bytes in
                for b in bytes {
                    switch b {
                    case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"):
                        byte(0x5C)
                        byte(b)
                    case 0x08: byte(0x5C); byte(UInt8(ascii: "b"))
                    case 0x0C: byte(0x5C); byte(UInt8(ascii: "f"))
                    case 0x0A: byte(0x5C); byte(UInt8(ascii: "n"))
                    case 0x0D: byte(0x5C); byte(UInt8(ascii: "r"))
                    case 0x09: byte(0x5C); byte(UInt8(ascii: "t"))
                    case 0..<0x20:
                        text("\\u00")
                        hex(b)
                    default: byte(b)
                    }
                }
            }
            byte(UInt8(ascii: "\""))
        }
    }
}
