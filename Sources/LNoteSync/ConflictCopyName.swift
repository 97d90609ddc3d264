import LNoteFormat
import LNoteStore

/// Recognises the conflict copies sync clients write next to the engine's files (Spec/sync.md
/// Y-001): Syncthing `<stem>.sync-conflict-<yyyymmdd>-<hhmmss>-<device>.<ext>`, Dropbox
/// `<stem> (<who>'s conflicted copy <date>).<ext>`, plain `<stem> <n>.<ext>`; case-insensitive.
public enum ConflictCopyName {
    /// The sync client naming scheme a copy's name follows.
    public enum Scheme: String, Sendable { case syncthing, dropbox, numbered }

    /// The original name and scheme of a conflict copy of an engine file, or nil.
    public static func parse(_ name: String) -> (original: String, scheme: Scheme)? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        let ext = String(name[name.index(after: dot)...])
        let head = String(name[..<dot])
        guard !ext.isEmpty, let (stem, scheme) = stripMarker(head) else { return nil }
        let original = stem + "." + ext
        guard isEngineName(original) else { return nil }
        return (original, scheme)
    }

    /// The stem before a conflict marker at the end of `head`, and which marker it was.
    static func stripMarker(_ head: String) -> (String, Scheme)? {
        let lower = head.lowercased()
        if let r = lower.ranges(of: ".sync-conflict-").last {
            let tail = Array(lower[r.upperBound...].utf8)
            if isSyncthingTail(tail) { return (String(head[..<r.lowerBound]), .syncthing) }
        }
        if lower.hasSuffix(")"), let open = lower.lastIndex(of: "("), open > lower.startIndex {
            let inner = lower[lower.index(after: open)..<lower.index(before: lower.endIndex)]
            let before = lower.index(before: open)
            if inner.contains("conflicted copy"), !inner.contains("("), lower[before] == " " {
                return (String(head[..<before]), .dropbox)
            }
        }
        if let space = lower.lastIndex(of: " ") {
            let digits = lower[lower.index(after: space)...]
            if !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }), !digits.hasPrefix("0"),
                let n = Int(digits), n >= 2, space > lower.startIndex
            {
                return (String(head[..<space]), .numbered)
            }
        }
        return nil
    }

    /// `yyyymmdd-hhmmss-<device>`: 8 digits, dash, 6 digits, dash, one or more letters or digits.
    static func isSyncthingTail(_ t: [UInt8]) -> Bool {
        guard t.count >= 17, t[8] == UInt8(ascii: "-"), t[15] == UInt8(ascii: "-") else { return false }
        let isDigit = { (c: UInt8) in c >= 0x30 && c <= 0x39 }
        let isAlnum = { (c: UInt8) in isDigit(c) || (c >= 0x61 && c <= 0x7A) || (c >= 0x41 && c <= 0x5A) }
        return t[0..<8].allSatisfy(isDigit) && t[9..<15].allSatisfy(isDigit) && t[16...].allSatisfy(isAlnum)
    }

    /// True for names the engine writes in a package (document.json, manifest.json, page
    /// files, assets, thumbnails); page and asset ids are compared lower-cased (D-081).
    public static func isEngineName(_ name: String) -> Bool {
        let lower = name.lowercased()
        if lower == "document.json" || lower == "manifest.json" { return true }
        if PageFileNames.parse(lower) != nil { return true }
        if PackageLayout.parseAssetName(lower) != nil { return true }
        return false
    }
}
