import LNoteCheck
import Foundation
import LNoteFormat
import LNoteStore
import LNoteToolSupport
import LNoteDiagnostics

/// `lnote dump PACKAGE`: the pages of a package with their elements in order.
enum PackageDump {
    struct PageLine: Codable {
        var id: String
        var elementCount: Int
        var elementIDs: [String]
        var generation: UInt64
        var framesReplayed: Int
    }

    struct Dump: Codable {
        var package: String
        var pages: [PageLine]
    }

    static func run(path: String, page selector: String?, json: Bool) async throws -> Int32 {
        let fs = POSIXFileSystem.shared
        let pagesDir = joinPath(path, "pages")
        var ids = try PackagePageOrder.pageIDs(fs: fs, package: path)
        if let selector {
            if let index = Int(selector) {
                guard ids.indices.contains(index) else {
                    throw UsageError("page index \(index) out of range 0..<\(ids.count)")
                }
                ids = [ids[index]]
            } else if let id = UUIDBytes(string: selector) {
                guard ids.contains(id) else { throw OperationalError("no page \(selector) in \(path)") }
                ids = [id]
            } else {
                throw UsageError("--page expects a page id or index, got '\(selector)'")
            }
        }
        var lines: [PageLine] = []
        let names = PackageInspection.pageFileNames(fs: fs, pagesDirectory: pagesDir)
        for id in ids {
            let r: PageRecovery.Result
            do {
                r = try PageRecovery.recover(
                    fs: fs, directory: pagesDir, pageID: id, mode: .salvage, names: names?[id] ?? names.map { _ in [] })
            } catch {
                throw OperationalError("page \(id): \(TerminalSafeText.text("\(error)"))")
            }
            lines.append(
                PageLine(
                    id: id.description, elementCount: r.state.elements.count,
                    elementIDs: r.state.elements.map { $0.key.description }, generation: r.generation,
                    framesReplayed: r.report.framesReplayed))
        }
        if json {
            print(try jsonString(Dump(package: path, pages: lines)))
        } else {
            print("package \(TerminalSafeText.text(path))")
            for (i, p) in lines.enumerated() {
                print(
                    "page \(i) \(p.id): \(p.elementCount) elements (snapshot generation \(p.generation), \(p.framesReplayed) journal frames)"
                )
                for e in p.elementIDs { print("  \(e)") }
            }
        }
        return ExitCode.ok
    }
}
