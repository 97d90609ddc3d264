/// The finding for a journal cut off at creation (J-028): a file of at most 64 bytes whose
/// header is invalid. Information like a torn tail (`isTornTail`), never damage.
package enum TornCreation {
    package static let kind = "tornCreation"

    /// The `tornCreation` finding for `file` of `size` bytes (offset 0, bytes: the size).
    package static func finding(file: String, size: Int, reason: String?) -> RecoveryFinding {
        RecoveryFinding(kind: kind, file: file, offset: 0, bytes: size, isTornTail: true,
                        detail: "journal created but its header was never synced (\(reason ?? "invalid")); holds no frame (J-028)")
    }
}
