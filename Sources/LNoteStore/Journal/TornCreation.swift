import LNoteFormat

/// The finding for a journal cut off at creation (J-028): a file whose header is invalid and
/// whose bytes after the header's 64 are all zero (none, or a prepared journal's zeros,
/// P-022). Information like a torn tail (`isTornTail`), never damage.
package enum TornCreation {
    package static let kind = "tornCreation"

    /// True when no byte after the first 64 of `bytes` is non-zero (J-028's shape; the header
    /// is judged separately).
    package static func holdsNoFrame(_ bytes: [UInt8]) -> Bool {
        guard bytes.count > FormatLimits.journalHeaderBytes else { return true }
        return bytes.withUnsafeBufferPointer { b in
            var any: UInt8 = 0
            for i in FormatLimits.journalHeaderBytes..<b.count { any |= b[i] }
            return any == 0
        }
    }

    /// The `tornCreation` finding for `file` of `size` bytes (offset 0, bytes: the size).
    package static func finding(file: String, size: Int, reason: String?) -> RecoveryFinding {
        RecoveryFinding(
            kind: kind, file: file, offset: 0, bytes: size, isTornTail: true,
            detail: "journal created but its header was never synced (\(reason ?? "invalid")); holds no frame")
    }
}
