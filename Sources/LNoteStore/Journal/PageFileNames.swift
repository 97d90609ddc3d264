import LNoteFormat

/// File names of a page's files inside `pages/` (J-001, section 7).
package enum PageFileNames {
    /// `<page-uuid>.content`
    public static func snapshot(_ page: UUIDBytes) -> String { "\(page).content" }
    /// `<page-uuid>.content.tmp`: the engine's own temporary file for an atomic snapshot write.
    public static func snapshotTemp(_ page: UUIDBytes) -> String { "\(page).content.tmp" }
    /// `<page-uuid>.<base>.journal`
    public static func journal(_ page: UUIDBytes, base: UInt64) -> String { "\(page).\(base).journal" }

    /// What a file name in `pages/` denotes.
    public enum Parsed: Equatable, Sendable {
        case snapshot(UUIDBytes)
        case snapshotTemp(UUIDBytes)
        case journal(UUIDBytes, base: UInt64)
    }

    /// Parses a name written by the functions above; nil for anything else: a lowercase
    /// canonical UUID (36 bytes, J-001), then `.content`, `.content.tmp` or `.<base>.journal`
    /// with `base` in decimal digits, no leading zero, at most `UInt64.max`.
    ///
    /// Read from the name's UTF-8 bytes: every name an open lists goes through here before
    /// the first byte of the page is read, and the same rules on `Character`s and `Substring`s
    /// took about 4 us a name (a byte that is not one of these ASCII ones fails the name either
    /// way: no other text is canonically equivalent to them).
    public static func parse(_ name: String) -> Parsed? {
        var name = name
        return name.withUTF8 { parse(utf8: $0, anyCase: false) }
    }

    /// `parse` with the page id's hex letters in any case (P-024), for a snapshot or a journal
    /// (a temporary name stays lowercase only); `isLowercase` tells whether the name is the one
    /// a writer writes (`lowercased`).
    public static func parseAnyCase(_ name: String) -> Parsed? {
        var bytes = name
        guard let parsed = bytes.withUTF8({ parse(utf8: $0, anyCase: true) }) else { return nil }
        if case .snapshotTemp = parsed, !isLowercase(name) { return nil }
        return parsed
    }

    /// Whether a page file's name (one `parseAnyCase` takes) has its page id in lowercase
    /// (an empty name has); also for an asset's name (D-040).
    public static func isLowercase(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { b in
            for c in b.prefix(uuidLength) where c >= UInt8(ascii: "A") && c <= UInt8(ascii: "F") { return false }
            return true
        }
    }

    /// P-024: of `name` and `held`, two spellings of the same page file (or asset, D-040), `held` becomes the
    /// one read (the lowercase one, else the first in byte order: the names are ASCII, whose
    /// `String` order is their bytes') and the other is appended to `shadowed`.
    static func choose(_ name: String, _ held: inout String, shadowed: inout [String]) {
        let lower = isLowercase(name)
        if lower != isLowercase(held) ? lower : name < held {
            shadowed.append(held)
            held = name
        } else {
            shadowed.append(name)
        }
    }

    /// iCloud Drive's placeholder for a page file it evicted (D-091): for `.<name>.icloud` where
    /// `parseAnyCase` takes `<name>`, that name and what it denotes; nil for any other name.
    public static func placeholder(_ name: String) -> (name: String, parsed: Parsed)? {
        guard name.hasPrefix("."), name.hasSuffix(".icloud") else { return nil }
        let inner = String(name.dropFirst().dropLast(".icloud".count))
        return parseAnyCase(inner).map { (inner, $0) }
    }

    /// The name a writer gives the file a name `parseAnyCase` takes denotes (P-025): the name in
    /// lowercase, its suffix being lowercase already (J-001).
    public static func lowercased(_ name: String) -> String { name.lowercased() }

    private static let uuidLength = 36
    private static let contentSuffix = Array(".content".utf8)
    private static let tmpSuffix = Array(".content.tmp".utf8)
    private static let journalSuffix = Array(".journal".utf8)

    private static func parse(utf8 b: UnsafeBufferPointer<UInt8>, anyCase: Bool) -> Parsed? {
        guard b.count > uuidLength, let id = canonicalUUID(b, anyCase: anyCase), b[uuidLength] == UInt8(ascii: ".")
        else { return nil }
        let rest = UnsafeBufferPointer(rebasing: b[uuidLength...])
        if rest.elementsEqual(contentSuffix) { return .snapshot(id) }
        if rest.elementsEqual(tmpSuffix) { return .snapshotTemp(id) }
        // `.<digits>.journal`
        guard rest.count > 1 + journalSuffix.count,
            UnsafeBufferPointer(rebasing: rest[(rest.count - journalSuffix.count)...]).elementsEqual(journalSuffix)
        else { return nil }
        let digits = rest[1..<rest.count - journalSuffix.count]
        guard let first = digits.first, first != UInt8(ascii: "0") || digits.count == 1 else { return nil }
        var base: UInt64 = 0
        for c in digits {
            guard c >= UInt8(ascii: "0"), c <= UInt8(ascii: "9") else { return nil }
            let (times10, o1) = base.multipliedReportingOverflow(by: 10)
            let (sum, o2) = times10.addingReportingOverflow(UInt64(c - UInt8(ascii: "0")))
            guard !o1, !o2 else { return nil }
            base = sum
        }
        return .journal(id, base: base)
    }

    /// The UUID the first 36 bytes spell in lowercase canonical form (what `UUIDBytes`'s
    /// `description` writes), or with `anyCase` with its hex letters in any case; or nil.
    private static func canonicalUUID(_ b: UnsafeBufferPointer<UInt8>, anyCase: Bool) -> UUIDBytes? {
        var storage: (UInt64, UInt64) = (0, 0)
        let valid = withUnsafeMutableBytes(of: &storage) { out -> Bool in
            var i = 0, k = 0
            while i < uuidLength {
                if i == 8 || i == 13 || i == 18 || i == 23 {
                    guard b[i] == UInt8(ascii: "-") else { return false }
                    i += 1
                    continue
                }
                guard let hi = hexDigit(b[i], anyCase), let lo = hexDigit(b[i + 1], anyCase) else { return false }
                out[k] = hi << 4 | lo
                k += 1
                i += 2
            }
            return true
        }
        return valid ? UUIDBytes(storage: storage) : nil
    }

    private static func hexDigit(_ c: UInt8, _ anyCase: Bool) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F") where anyCase: return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
