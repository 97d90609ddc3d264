import Foundation
import Testing

/// A document.json claiming ten million pages (more than `documentJSONBytesMax` can hold) is
/// refused by every command that reads a package, by its size before it is parsed (D-010):
/// a clear error naming document.json, in seconds, whatever the claim.
@Suite(.serialized) struct HugeDocumentCLITests {
    @Test(
        "D-010 K-033 info, dump, render, compact, fsck and export-sqlite refuse a ten-million-page document.json in seconds"
    )
    func tenMillionPagesAreRefusedEverywhere() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = try Tool.generatedPackage(in: dir, strokes: 2, journalFrames: 0)
        let id = String(package.split(separator: "/").last?.dropLast(".lnote".count) ?? "")
        // The first 130,000 of ten million entries already pass the 16 MiB limit.
        let entry =
            #"{"id":"00000000-0000-4000-8000-000000000000","width":6120,"height":7920,"created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","elementCount":0}"#
        let head =
            #"{"format":"lnote.document","version":1,"id":"\#(id)","title":"t","created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","pages":["#
        let text = head + Array(repeating: entry, count: 130_000).joined(separator: ",") + "]}"
        try Data(text.utf8).write(to: URL(fileURLWithPath: package + "/document.json"))
        for args in [
            ["info", package], ["dump", package], ["render", package, "-o", dir + "/x.png"], ["compact", package],
            ["fsck", package], ["export-sqlite", package, "--out", dir + "/n.db"]
        ] {
            let start = Date()
            let r = try Tool.run(args)
            let took = Date().timeIntervalSince(start)
            let output = r.stdout + r.stderr
            #expect(r.status != 0, "\(args): \(output)")
            // The refusal names the file and the limit (D-010) it passes.
            #expect(
                output.contains("document.json") && (output.contains("D-010") || output.contains("16777216")),
                "\(args): \(output)")
            #expect(took < 30, "\(args) took \(took) s")
        }
    }
}
