#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// What an app reads as an element's id: Foundation's `UUID`, derived from the 16 bytes the
// engine keeps (`key`); a copy, no allocation.

extension Stroke: Identifiable {
    /// The id, unique within its page (E-011); set it to give a copy its own id.
    public var id: UUID {
        get { UUID(key) }
        set { key = UUIDBytes(newValue) }
    }
}

extension ImageElement: Identifiable {
    /// The id, unique within its page (E-011); set it to give a copy its own id.
    public var id: UUID {
        get { UUID(key) }
        set { key = UUIDBytes(newValue) }
    }

    /// The asset holding the pixels (`assets/<assetID>.<ext>`).
    public var assetID: UUID {
        get { UUID(assetKey) }
        set { assetKey = UUIDBytes(newValue) }
    }
}

extension Element: Identifiable {
    /// The element's id.
    public var id: UUID { UUID(key) }
}

extension ApplyNote {
    /// The id of the element that was skipped.
    public var id: UUID { UUID(key) }
}
