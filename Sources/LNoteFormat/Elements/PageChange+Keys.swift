#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

// The engine builds and reads changes by `UUIDBytes` (what the codec and the page index hold);
// the public cases carry Foundation's `UUID`. Converting is a 16-byte copy per id; an append,
// the change a page holds most of, carries no id outside its element.

extension PageChange {
    /// `.replace` of the element with these 16 bytes as its id.
    @_disfavoredOverload package static func replace(target: UUIDBytes, fragments: [Element]) -> PageChange {
        .replace(target: UUID(target), fragments: fragments)
    }
    /// `.transform` by 16-byte ids.
    @_disfavoredOverload package static func transform(_ pairs: [(UUIDBytes, Transform)]) -> PageChange {
        .transform(pairs.map { (UUID($0.0), $0.1) })
    }
    /// `.delete` by 16-byte ids.
    @_disfavoredOverload package static func delete(_ keys: [UUIDBytes]) -> PageChange { .delete(keys.map(UUID.init)) }
    /// `.reorder` by 16-byte ids.
    @_disfavoredOverload package static func reorder(index: Int, ids: [UUIDBytes]) -> PageChange {
        .reorder(index: index, ids: ids.map(UUID.init))
    }
}

extension UUID {
    /// The same 16 bytes as the engine's `UUIDBytes`.
    package var key: UUIDBytes { UUIDBytes(self) }
}

extension Array where Element == UUID {
    /// The same ids as the engine's `UUIDBytes`.
    package var keys: [UUIDBytes] { map(UUIDBytes.init) }
}
