import CLNoteStore
import LNoteFormat

/// SHA-256 fed in pieces (CLNoteStore `sha256.c`): the hash behind an asset's content id
/// (Spec/format.md D-043). A value type holding the C state; nothing is allocated.
package struct SHA256: Sendable {
    private var state = lnote_sha256()

    package init() { lnote_sha256_init(&state) }

    /// Hashes `bytes` after everything hashed before.
    package mutating func update(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        lnote_sha256_update(&state, base, bytes.count)
    }

    package mutating func update(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { update($0) }
    }

    /// The 32-byte digest of everything hashed (the hasher is spent).
    package mutating func finish() -> [UInt8] {
        var digest = [UInt8](repeating: 0, count: 32)
        digest.withUnsafeMutableBufferPointer { out in
            guard let base = out.baseAddress else { return }
            lnote_sha256_final(&state, base)
        }
        return digest
    }

    /// The digest of `bytes`.
    package static func digest(_ bytes: [UInt8]) -> [UInt8] {
        var h = SHA256()
        h.update(bytes)
        return h.finish()
    }
}

extension UUIDBytes {
    /// The content id of an asset whose SHA-256 is `digest` (D-043): its first 16 bytes, with
    /// the version set to 8 and the variant to `10`.
    package static func contentID(digest: [UInt8]) -> UUIDBytes {
        var b = Array(digest.prefix(16))
        while b.count < 16 { b.append(0) }
        b[6] = (b[6] & 0x0F) | 0x80
        b[8] = (b[8] & 0x3F) | 0x80
        return UUIDBytes(bytes: b) ?? .zero
    }

    /// The content id of the asset `bytes` (D-043).
    package static func contentID(of bytes: [UInt8]) -> UUIDBytes { contentID(digest: SHA256.digest(bytes)) }

    /// True when this id is a content id (D-043): version 8, variant `10`. Such an asset's
    /// bytes must hash to it (D-045).
    public var isContentID: Bool {
        let b = bytes
        return b[6] >> 4 == 8 && b[8] >> 6 == 2
    }
}
