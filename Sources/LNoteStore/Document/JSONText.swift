import CLNoteStore

/// The JSON that `document.json` and `manifest.json` are read as (Spec/format.md D-082): RFC
/// 8259 without extensions, in UTF-8, one value, no name twice in one object, nesting at most
/// `depthMax` deep. Checked on the bytes before a decoder sees them, so that every reader
/// accepts the same files and sees the same values: Foundation's decoder alone takes UTF-16,
/// trailing commas, leading zeros, bad escapes and bad UTF-8 where a key is unknown, and the
/// first of two equal names, where other readers refuse or take the last. The checker is C
/// (`lnote_json_check`, json_text.c): the same in Swift cost an app about twice the code
/// (docs/binary-size.md).
package enum JSONText {
    /// Where the value's text starts in `bytes` (3 after a byte-order mark `EF BB BF`, which is
    /// ignored, else 0), or nil when they are not JSON as D-082 reads it (`problem` says why).
    package static func start(_ bytes: [UInt8]) -> Int? {
        var at = 0
        return check(bytes, &at) == LNOTE_JSON_OK ? at : nil
    }

    /// Why `bytes` are not JSON as D-082 reads it, with the byte where that was seen
    /// ("a name appears twice in one object at byte 8 (D-082)"); nil when they are.
    package static func problem(_ bytes: [UInt8]) -> String? {
        var at = 0
        let code = check(bytes, &at)
        guard code != LNOTE_JSON_OK else { return nil }
        return String(cString: lnote_json_reason(Int32(code))) + " at byte \(at)"
    }

    /// `bytes` (already accepted by `start`) for Foundation's decoder, every number's value
    /// kept as D-082 reads it: Foundation refuses `1e-400` and `1e400` as "not valid JSON",
    /// where D-082 reads the first as 0 and the second as a value out of every range, so they
    /// are written `0` and `1e308` (`lnote_json_readable`). Cost: one pass and one copy.
    package static func readable(_ bytes: [UInt8]) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: bytes.count) { out, n in
            n = bytes.withUnsafeBufferPointer { lnote_json_readable($0.baseAddress, $0.count, out.baseAddress) }
        }
    }

    private static func check(_ bytes: [UInt8], _ at: inout Int) -> Int {
        Int(bytes.withUnsafeBufferPointer { lnote_json_check($0.baseAddress, $0.count, &at) })
    }
}
