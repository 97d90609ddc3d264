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

    /// Parses a name written by the functions above; nil for anything else.
    public static func parse(_ name: String) -> Parsed? {
        let parts = name.split(separator: ".", omittingEmptySubsequences: false)
        guard let first = parts.first, let id = UUIDBytes(string: String(first)),
              String(first) == id.description else { return nil }
        switch parts.count {
        case 2 where parts[1] == "content": return .snapshot(id)
        case 3 where parts[1] == "content" && parts[2] == "tmp": return .snapshotTemp(id)
        case 3 where parts[2] == "journal":
            let digits = parts[1]
            guard !digits.isEmpty, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  digits == "0" || !digits.hasPrefix("0"), let base = UInt64(digits) else { return nil }
            return .journal(id, base: base)
        default: return nil
        }
    }
}
