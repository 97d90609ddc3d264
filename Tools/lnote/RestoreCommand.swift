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
        original untouched. Without --page, the document goes back to TIME: pages deleted since
        come back from the trash, every page with a version at TIME is restored, and pages
        created since go to the trash (all of it reversible; --version names one page's version
        and needs --page). With --into, the pages that have a version at TIME are written.

        Writing into the package takes its writer lock (exit 8 if another process has it open
        for writing). With --page, a page with no version at that point fails the command
        before anything is written; without it, such a page is left as it is and named.

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
            if into == nil, wanted == nil, let date {
                try report(try await document.restore(to: date), pageIDs: await document.pageIDs)
                try await document.close()
                return ExitCode.ok
            }
            // Every past state is rebuilt before anything is written, so a page without such a
            // version fails the command with nothing changed.
            var targets: [(index: Int, id: UUIDBytes, past: PageState)] = []
            for (index, id) in await document.pageIDs.enumerated() where wanted == nil || wanted == id {
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

    /// One line per page a whole-document restore changed (H-080).
    private static func report(_ r: DocumentRestore, pageIDs: [UUIDBytes]) throws {
        func index(_ id: UUID) -> String { pageIDs.firstIndex(of: UUIDBytes(id)).map { "page \($0) " } ?? "" }
        for id in r.untrashed { print("\(index(id))\(UUIDBytes(id)): put back from the trash") }
        for p in r.restored {
            let n = p.edit.changes.count
            print("\(index(p.pageID))\(UUIDBytes(p.pageID)): \(n) change\(n == 1 ? "" : "s")")
        }
        for id in r.trashed { print("\(UUIDBytes(id)): created after that time, moved to the trash") }
        for id in r.withoutVersion { print("\(index(id))\(UUIDBytes(id)): no version at that time, left as it is") }
        if r.untrashed.isEmpty && r.restored.isEmpty && r.trashed.isEmpty { print("nothing to restore") }
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
