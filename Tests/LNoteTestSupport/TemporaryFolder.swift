import Foundation

/// A fresh folder under the system's temporary folder, named `<label>-<uuid>`, made at once.
/// The caller removes it with `remove()` (usually in a `defer`).
public struct TemporaryFolder: Sendable {
    public let path: String

    public init(_ label: String = "lnote") {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/\(label)-\(UUID().uuidString.lowercased())"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the folder and everything in it.
    public func remove() { try? FileManager.default.removeItem(atPath: path) }

    /// The path of `name` inside the folder (not made).
    public func file(_ name: String) -> String { path + "/" + name }

    /// A sub-folder `name`, made if missing.
    public func sub(_ name: String) -> String {
        let p = file(name)
        try? FileManager.default.createDirectory(atPath: p, withIntermediateDirectories: true)
        return p
    }
}
