#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// Apps name pages, elements, assets and documents by Foundation's `UUID`; the engine keeps
// `UUIDBytes`. Both hold the same 16 bytes in the same order (the canonical text order), so a
// conversion is one 16-byte copy, no allocation.

extension UUIDBytes {
    /// The same 16 bytes as Foundation's `UUID`.
    @inline(__always)
    package init(_ uuid: UUID) {
        self.init(storage: unsafeBitCast(uuid.uuid, to: (UInt64, UInt64).self))
    }
}

extension UUID {
    /// The same 16 bytes as the engine's `UUIDBytes`.
    @inline(__always)
    package init(_ key: UUIDBytes) {
        self.init(uuid: unsafeBitCast(key.storage, to: uuid_t.self))
    }
}
