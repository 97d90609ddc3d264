#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

extension UUIDBytes {
    /// The same 16 bytes as Foundation's `UUID` (both use the canonical text order).
    public init(_ uuid: UUID) {
        var u = uuid.uuid
        self = withUnsafeBytes(of: &u) { UUIDBytes(bytes: $0) } ?? .zero
    }
}

extension UUID {
    /// The same 16 bytes as the engine's `UUIDBytes`.
    public init(_ id: UUIDBytes) {
        let b = id.bytes
        self.init(
            uuid: (
                b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7],
                b[8], b[9], b[10], b[11], b[12], b[13], b[14], b[15]
            ))
    }
}
