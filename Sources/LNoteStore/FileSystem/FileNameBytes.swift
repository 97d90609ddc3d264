#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import CLNoteStore

// File names are bytes (Spec/format.md D-035). The engine's own calls on paths map them in C
// (`lnote_path_call`); these two are for the names it lists and for the tools.

/// The text of the NUL-terminated file name or path `bytes`: itself when it is UTF-8 and holds
/// none of U+10FF80 ... U+10FFFF, else every byte b >= 0x80 as U+10FF00 + b, so
/// `fileNameBytes` gives back exactly `bytes`.
package func fileNameText(_ bytes: UnsafePointer<CChar>) -> String {
    if lnote_name_has_reserved(bytes) == 0, let text = String(validatingCString: bytes) { return text }
    return String(unsafeUninitializedCapacity: 4 * strlen(bytes)) { lnote_name_escaped(bytes, $0.baseAddress) }
}

/// The bytes of the file name or path `text`, NUL-terminated for a C call: each U+10FF80 ...
/// U+10FFFF stands for one byte that is not UTF-8. Bytes after the NUL are unused.
@inline(never)
package func fileNameBytes(_ text: String) -> [CChar] {
    var bytes = Array(text.utf8CString)
    lnote_name_bytes(&bytes)
    return bytes
}
