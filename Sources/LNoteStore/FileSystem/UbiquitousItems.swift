import LNoteFormat
#if canImport(Darwin)
import Foundation
#endif

/// Files in iCloud Drive (and other ubiquity containers) that are present but not downloaded:
/// the system replaces an evicted file `<name>` by a placeholder `.<name>.icloud` (D-091).
/// A page with such a placeholder is refused rather than read as what remains of it (D-092),
/// and the app can ask for the download.
package enum UbiquitousItems {
    /// Throws `notDownloaded` (with the file's own path) when `name`, listed in `directory`
    /// (a package's `pages/`), is the placeholder of one of page `pageID`'s files (D-092).
    package static func refusePlaceholder(_ name: String, directory: String, pageID: UUIDBytes) throws(LNoteError) {
        guard let (inner, parsed) = PageFileNames.placeholder(name) else { return }
        switch parsed {
        case .snapshot(let id) where id == pageID, .journal(let id, _) where id == pageID:
            throw LNoteError(
                .notDownloaded,
                "the page's file is in iCloud Drive but not on this device yet (\(name)); nothing was read",
                file: joinPath(directory, inner))
        default:
            return  // another page's, or a temporary file nobody needs
        }
    }
}

extension POSIXFileSystem {
    /// Asks the system to download the file at `path` (its own path, as `LNoteError.file` of a
    /// `notDownloaded` error gives it) from iCloud Drive: `FileManager`'s
    /// `startDownloadingUbiquitousItem(at:)` on Apple platforms, which returns at once; the
    /// page opens once the file is there (D-093). Returns false where there is nothing to ask
    /// (no ubiquity containers: Linux).
    package func startDownloading(_ path: String) throws -> Bool {
        #if canImport(Darwin)
        do {
            try FileManager.default.startDownloadingUbiquitousItem(at: URL(fileURLWithPath: path))
        } catch {
            throw LNoteError(
                .io, "cannot start downloading from iCloud Drive: \(error.localizedDescription)", file: path)
        }
        return true
        #else
        return false
        #endif
    }
}
