#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat
import LNoteStore

/// What one `SyncMerge.merge` run did (Spec/sync.md section 2).
public struct MergeReport: Sendable, Codable, Equatable {
    /// What the merge did with one conflict copy.
    public enum Action: String, Sendable, Codable {
        /// Merged, then removed (Y-019).
        case merged
        /// Derived data or an identical copy: removed (Y-018).
        case removed
        /// Something could not be placed: moved whole to lost+found/ (Y-019).
        case lostAndFound
        /// Not merged this time (the page is not listed, or the copy is not the engine's).
        case leftAlone
    }

    /// One conflict copy the merge found: its name, the file it is a copy of, what became of it.
    public struct Copy: Sendable, Codable, Equatable {
        public var name: String
        public var original: String
        public var action: Action
        public var detail: String
    }

    /// The package folder (absolute); apps read `url`. Encoded as `path`.
    package var packagePath: String
    public var copies: [Copy] = []
    /// Changes the merge wrote to pages through the writer (Y-013 .. Y-016).
    public var changesApplied = 0
    /// Pages a document.json copy added to the page list (Y-017).
    public var pagesAdded = 0
    /// Page files moved back from `lost+found/` to `pages/`: set aside (D-060) by a writer that
    /// opened before the `document.json` listing their page arrived (Y-053).
    public var pagesRestored: [String] = []
    /// Copies whose fork could not be found: erased elements may have returned (Y-016).
    public var forkUnknown: [String] = []

    /// An empty report for the package at `url`.
    public init(url: URL) { self.init(packagePath: url.path(percentEncoded: false)) }

    /// An empty report for the package at path `path`.
    @available(*, deprecated, renamed: "init(url:)")
    public init(path: String) { self.init(packagePath: path) }

    package init(packagePath: String) { self.packagePath = packagePath }

    /// The package folder.
    public var url: URL { URL(filePath: packagePath, directoryHint: .isDirectory) }

    /// The package folder's path.
    @available(*, deprecated, renamed: "url")
    public var path: String { packagePath }

    private enum CodingKeys: String, CodingKey {
        case packagePath = "path", copies, changesApplied, pagesAdded, pagesRestored, forkUnknown
    }

    /// True when the merge changed nothing: no copy was found and no page file restored.
    public var isEmpty: Bool { copies.isEmpty && pagesRestored.isEmpty }
}
