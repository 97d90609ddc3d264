import Foundation
import LNoteSQLite
import LNoteStore
import LNoteToolSupport

/// What `export-sqlite` and `import-sqlite` share: the report printed for people or as JSON,
/// progress on a terminal, and the exit status (Spec/sqlite.md, Q-053).
enum SQLiteCommandSupport {
    /// Progress on standard error, only when it is a terminal and the output is not JSON:
    /// documents done of the total and payload MB/s, rewritten in place.
    static func progress(enabled: Bool, verb: String) -> ((SQLiteTransferProgress) -> Void)? {
        guard enabled, ToolSystem.standardErrorIsTerminal else { return nil }
        return { p in
            let rate = p.seconds > 0 ? Double(p.payloadBytes) / 1e6 / p.seconds : 0
            printErr(
                "\r\(verb) \(p.documentsDone)/\(p.documentsTotal) documents, \(String(format: "%.1f", rate)) MB/s"
                    + (p.documentsDone == p.documentsTotal ? "\n" : ""))
        }
    }

    /// Prints the report (JSON with `json`) and returns the exit status: 0 when every document
    /// was written and verified or found equal, 4 when any failed or differs.
    static func finish(_ report: SQLiteTransferReport, json: Bool) throws -> Int32 {
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            print(String(decoding: try encoder.encode(report), as: UTF8.self))
        } else {
            print(human(report), terminator: "")
        }
        return report.ok ? ExitCode.ok : ExitCode.uncorrected
    }

    static func human(_ r: SQLiteTransferReport) -> String {
        var s = ""
        for d in r.documents {
            s +=
                "\(d.status.padding(toLength: 9, withPad: " ", startingAt: 0)) \(d.id ?? "-")  \(d.verification?.title ?? "")  (\(d.source))\n"
            if let e = d.error { s += "          error: \(e)\n" }
            if let v = d.verification {
                let elements = v.pages.reduce(0) { $0 + $1.elements[0] },
                    points = v.pages.reduce(0) { $0 + $1.points[0] }
                s +=
                    "          verified: \(v.pageCount[0]) pages, \(elements) elements, \(points) points, \(v.assetCount[0]) assets; "
                s +=
                    v.isEqual
                    ? "package and copy equal (counts, ids in z-order, points digests)\n"
                    : "\(v.differences.count) differences\n"
                for p in v.pages
                where p.elements[0] != p.elements[1] || !p.idsInZOrderEqual || p.pointsDigest[0] != p.pointsDigest[1] {
                    s +=
                        "          page \(p.position) \(p.id): elements \(p.elements[0])/\(p.elements[1]), digest \(p.pointsDigest[0])/\(p.pointsDigest[1])\n"
                }
                for difference in v.differences { s += "          - \(difference)\n" }
            }
        }
        let c = r.count
        let verb = r.direction == "export" ? "exported" : "imported"
        s += "\(verb) \(c.done), unchanged \(c.unchanged), failed \(c.failed) of \(r.documents.count) documents; "
        s +=
            "\(r.payloadBytes) payload bytes in \(String(format: "%.3f", r.seconds)) s (\(String(format: "%.1f", r.megabytesPerSecond)) MB/s); SQLite \(r.sqliteVersion)\n"
        return s
    }
}
