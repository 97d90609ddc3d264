#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

/// What a page's open found damaged and did about it, handed to the app without a read it
/// must remember to make: on the page (`Page.damage`), in the first value of its `updates()`,
/// and on the document (`Document.damagedPages`, `DocumentUpdate.damagedPages`).
///
/// A salvage open (the default) shows every intact element; elements whose bytes failed
/// their checks are left out (`framesLost`) or, when the engine still held an intact copy,
/// taken back from it (`elementsHealed`, P-041). Either way the damaged files are kept whole
/// in `lost+found/` before the page's files first change (P-042), so nothing is lost for
/// good: `lnote fsck` reports the page, and the bytes are there to be looked at.
public struct PageDamage: Sendable, Equatable {
    /// The 16 bytes of the page's id; apps read `pageID`.
    package var pageKey: UUIDBytes
    /// The names in `pages/` of the page files in which the open found damage; apps read
    /// `fileURLs`.
    package var fileNames: [String]
    /// The `pages/` folder of the page.
    package var pagesDirectory: String
    /// Frames (elements or changes) the page shows without: lost to damage, their bytes kept.
    public var framesLost: Int
    /// Elements a damaged snapshot lost that were taken back from the journal it absorbed
    /// (P-041): the page shows them; nothing of them is lost.
    public var elementsHealed: Int
    /// Every finding of the open (`Page.recoveryReport.findings`).
    public var findings: [RecoveryFinding]

    /// The damage `report` describes for page `pageID`; nil for an open that found none (torn
    /// tails and other information are not damage).
    package init?(pageID: UUIDBytes, report: RecoveryReport, pagesDirectory: String = "") {
        let healed = report.findings.filter { $0.kind == RecoveryFindingKind.healed.rawValue }.count
        guard !report.isClean || healed > 0 else { return nil }
        var files: [String] = []
        for f in report.findings where !f.isInformational && !files.contains(f.file) { files.append(f.file) }
        self.pageKey = pageID
        self.fileNames = files
        self.pagesDirectory = pagesDirectory
        self.framesLost = report.framesDropped
        self.elementsHealed = healed
        self.findings = report.findings
    }

    /// The page.
    public var pageID: UUID { UUID(pageKey) }

    /// The page files in which the open found damage (their copies are in the page's
    /// `Page.damageFolderURL` once kept).
    public var fileURLs: [URL] {
        fileNames.map { URL(filePath: joinPath(pagesDirectory, $0), directoryHint: .notDirectory) }
    }

    /// The names in `pages/` of the page files in which the open found damage.
    @available(*, deprecated, renamed: "fileURLs")
    public var files: [String] { fileNames }

    /// True when the page shows everything its files held: all damage was healed.
    public var lostNothing: Bool { framesLost == 0 }
}

extension Page {
    /// What this page's open found damaged (P-041, P-042); nil after a clean open.
    public var damage: PageDamage? { PageDamage(pageID: key, report: recoveryReport, pagesDirectory: directory) }

    /// The `pages/` folder holding this page's files (a `RecoveryFinding.file` is a name in it).
    public nonisolated var directoryURL: URL { URL(filePath: directory, directoryHint: .isDirectory) }

    /// The folder in `lost+found/` where this handle kept the damaged files its open found,
    /// before its first change to the page's files (P-042); nil until then, and for a page
    /// whose open found no damage.
    public var damageFolderURL: URL? { damageKeptIn.map { URL(filePath: $0, directoryHint: .isDirectory) } }
}
