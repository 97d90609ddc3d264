import LNoteFormat

/// Names of a page's history files (Spec/history.md H-001).
package enum HistoryFileNames {
    /// `history` at the package's top level.
    package static let folder = "history"

    /// `<package>/history`, for a page whose files are in `pagesDirectory` (`<package>/pages`).
    package static func historyRoot(pagesDirectory: String) -> String {
        joinPath(parentDirectory(of: pagesDirectory), folder)
    }

    /// `<package>/history/<page>` (lowercase page id).
    package static func pageFolder(pagesDirectory: String, page: UUIDBytes) -> String {
        joinPath(historyRoot(pagesDirectory: pagesDirectory), "\(page)")
    }

    /// `<base>-<salt>.journal`
    package static func journal(base: UInt64, salt: UInt64) -> String { "\(hex(base))-\(hex(salt)).journal" }
    /// `<first>-<salt>.thinned` (H-005)
    package static func thinned(first: UInt64, salt: UInt64) -> String { "\(hex(first))-\(hex(salt)).thinned" }
    /// `<next>-<salt>.content`
    package static func checkpoint(next: UInt64, salt: UInt64) -> String { "\(hex(next))-\(hex(salt)).content" }

    /// What a name in a history folder denotes.
    package enum Parsed: Equatable, Sendable {
        case journal(base: UInt64, salt: UInt64)
        case checkpoint(next: UInt64, salt: UInt64)
        case thinned(first: UInt64, salt: UInt64)
    }

    /// Parses a history file name (H-001): exactly 16 lowercase hex digits, `-`, 16 lowercase
    /// hex digits, then `.journal`, `.content` or `.thinned`. Anything else is nil.
    package static func parse(_ name: String) -> Parsed? {
        let b = Array(name.utf8)
        guard b.count > 33, b[16] == UInt8(ascii: "-") else { return nil }
        guard let first = value(b[0..<16]), let salt = value(b[17..<33]) else { return nil }
        switch String(decoding: b[33...], as: UTF8.self) {
        case ".journal": return .journal(base: first, salt: salt)
        case ".content": return .checkpoint(next: first, salt: salt)
        case ".thinned": return .thinned(first: first, salt: salt)
        default: return nil
        }
    }

    /// 16 lowercase hex digits.
    package static func hex(_ v: UInt64) -> String {
        let digits = String(v, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    private static func value(_ s: ArraySlice<UInt8>) -> UInt64? {
        var v: UInt64 = 0
        for c in s {
            let d: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): d = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): d = c - UInt8(ascii: "a") + 10
            default: return nil
            }
            v = v << 4 | UInt64(d)
        }
        return v
    }
}
