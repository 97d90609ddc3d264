#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteDiagnostics
import LNoteFormat
import LNoteStore
import LNoteToolSupport

/// `lnote restore`: brings a page, or every page, back to a past version (Spec/history.md), as
/// a new change in the package or into a new package. It never overwrites: in the package the
/// restore is one more version and the state it replaced stays in history.
enum RestoreCommand: Command {
    static let name = "restore"
    static let abstract = "Restore pages to a past version, as a new change or into a new package."
    static let usage = """
        lnote restore PACKAGE --page ID|INDEX (--version N | --date TIME) [--into NEW-PACKAGE]
               lnote restore PACKAGE --date TIME [--into NEW-PACKAGE]
        """
    static let discussion = """
        Rebuilds a page as it was at version N ('lnote history' lists them) or at TIME (an
        ISO 8601 time such as 2026-12-07T14:30:00Z: the last version saved at or before it),
        then either writes the changes that take the page back there as one new change of the
        package (the default: the current state stays in history and a later restore can bring
        it back), or, with --into, writes the restored pages into a new package and leaves the
        original untouched. Without --page, every page of the document that has a version at
        TIME is restored (--version names one page's version and needs --page).

        Writing into the package takes its writer lock (exit 8 if another process has it open
        for writing). A page with no version at that point fails the command before anything
        is written.

        Options:
          --page ID|INDEX     the page, by id or position (0 is first)
          --version N         the version number
          --date TIME         the latest version at or before TIME
          --into NEW-PACKAGE  write a new package (<uuid>.lnote, must not exist) instead
        """

    static func run(_ arguments: inout Arguments) async throws -> Int32 {
        let selector = try arguments.option("--page")
        let versionText = try arguments.option("--version")
        let dateText = try arguments.option("--date")
        let into = try arguments.option("--into").map(absolutePath)
        let rest = try arguments.positionals()
        guard rest.count == 1, let path = rest.first.map(absolutePath) else {
            throw UsageError("restore takes exactly one PACKAGE")
        }
        guard (versionText == nil) != (dateText == nil) else {
            throw UsageError("restore takes exactly one of --version and --date")
        }
        let version = try versionText.map { text -> UInt64 in
            guard let v = UInt64(text) else { throw UsageError("--version expects a number, got '\(text)'") }
            return v
        }
        if version != nil && selector == nil { throw UsageError("--version needs --page: versions are per page") }
        let date = try dateText.map(Self.date)
        let file = try PackageSupport.readDocument(PackageLayout(root: path))
        let wanted = try selector.map { try PackageSupport.page($0, in: file) }
        if let into { _ = try PackageSupport.packageID(into) }

        let document: Document
        do {
            var options = PageOptions()
            options.keepsHistory = true  // the state a restore replaces stays a version (H-033)
            document = try await Document.open(
                path: path, readOnly: into != nil, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        } catch {
            throw OperationalError("cannot open \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))")
        }
        do {
            // Every past state is rebuilt before anything is written, so a page without such a
            // version fails the command with nothing changed.
            var targets: [(index: Int, id: UUIDBytes, past: PageState)] = []
            for (index, id) in await document.pageKeys.enumerated() where wanted == nil || wanted == id {
                let page = try await document.page(id: id)
                if let version {
                    targets.append((index, id, try await page.state(atVersion: version)))
                } else if let date {
                    do {
                        targets.append((index, id, try await page.state(at: date)))
                    } catch let e as LNoteError where e.code == .notFound && wanted == nil {
                        continue  // a page made after TIME: nothing to restore it to
                    }
                }
            }
            if let into {
                try await document.close()
                try await write(targets.map(\.past), into: into, title: file.title)
                print(
                    "wrote \(targets.count) restored page\(targets.count == 1 ? "" : "s") into \(TerminalSafeText.text(into))"
                )
                return ExitCode.ok
            }
            for target in targets {
                let page = try await document.page(id: target.id)
                let edit = try await page.perform(HistoryRestore.changes(from: await page.state, to: target.past))
                let now = await page.changeSequence - 1
                print(
                    "page \(target.index) \(target.id): \(edit.changes.count) change\(edit.changes.count == 1 ? "" : "s"), "
                        + "\(target.past.elements.count) elements, now version \(now)")
            }
            try await document.close()
        } catch {
            try? await document.close()
            if let e = error as? UsageError { throw e }
            throw OperationalError(
                "cannot restore \(TerminalSafeText.text(path)): \(TerminalSafeText.text("\(error)"))")
        }
        return ExitCode.ok
    }

    /// A new package at `path` holding `pages` in order.
    private static func write(_ pages: [PageState], into path: String, title: String) async throws {
        _ = try PackageSupport.create(at: path, title: title, pages: pages.count)
        var options = PageOptions()
        options.keepsHistory = true
        let document = try await Document.open(path: path, pageOptions: options, fileSystem: POSIXFileSystem.shared)
        do {
            for (i, past) in pages.enumerated() {
                let page = try await document.page(at: i)
                try await page.apply([.metadata(past.metadata)] + past.elements.map { .append($0) })
            }
            try await document.close()
        } catch {
            try? await document.close()
            throw error
        }
    }

    /// An ISO 8601 time, with or without fractional seconds.
    static func date(_ text: String) throws -> Date {
        if let d = try? Date(text, strategy: Date.ISO8601FormatStyle(includingFractionalSeconds: true)) { return d }
        if let d = try? Date(text, strategy: Date.ISO8601FormatStyle()) { return d }
        throw UsageError("--date expects an ISO 8601 time such as 2026-12-07T14:30:00Z, got '\(text)'")
    }
}
