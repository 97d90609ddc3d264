/// Text from a package (titles, file names, error messages naming them) made safe to print
/// on a terminal (K-034): control characters (C0, DEL, C1: escape sequences, CR, backspace),
/// bidirectional overrides and isolates, and line/paragraph separators are shown as `\u{XX}`,
/// a byte of a file name that is not UTF-8 (U+10FF00 + b, D-035) as `\xHH`;
/// a backslash is doubled so the escaping cannot be forged. Everything else is unchanged.
package enum TerminalSafeText {
    package static func text(_ s: String) -> String {
        var out = ""
        out.reserveCapacity(s.utf8.count)
        for scalar in s.unicodeScalars {
            if scalar == "\\" {
                out += "\\\\"
            } else if (0x10FF80...0x10FFFF).contains(scalar.value) {
                // a byte that is not UTF-8 (D-035)
                out += "\\x" + String(scalar.value - 0x10FF00, radix: 16, uppercase: true)
            } else if isUnsafe(scalar) {
                out += "\\u{" + String(scalar.value, radix: 16, uppercase: true) + "}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    package static func isUnsafe(_ u: Unicode.Scalar) -> Bool {
        switch u.value {
        case 0x00...0x1F, 0x7F...0x9F: return true  // C0 (ESC, CR, BS...), DEL, C1 (CSI)
        case 0x200E, 0x200F, 0x061C: return true  // LRM, RLM, ALM
        case 0x202A...0x202E, 0x2066...0x2069: return true  // bidi embeddings, overrides, isolates
        case 0x2028, 0x2029: return true  // line and paragraph separators
        default: return false
        }
    }
}
