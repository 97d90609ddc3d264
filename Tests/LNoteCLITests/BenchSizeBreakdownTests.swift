import Foundation
import Testing

/// The size suite's breakdown of what a client gains by linking LNoteStore: its
/// "of which" rows come from the stripped binaries' ELF section headers and add up to the
/// measured total.
@Suite struct BenchSizeBreakdownTests {
    @Test(
        "lnote-bench --suite size: the code, unwind, relocation, metadata and rest rows add up to the size LNoteStore adds"
    )
    func sizeRowsAddUp() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let json = dir + "/bench.json"
        let r = try Tool.run(
            ["--quick", "--suite", "size", "--json", json, "--out", dir + "/out", "--dir", dir],
            executable: Tool.built("lnote-bench"))
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        let report = try Tool.json(String(contentsOfFile: json, encoding: .utf8))
        let suite = try #require((report["suites"] as? [[String: Any]])?.first { $0["name"] as? String == "size" })
        let rows = suite["rows"] as? [[String: Any]] ?? []
        let notes = (suite["notes"] as? [String] ?? []).joined(separator: "\n")
        // Without swiftc or strip (a machine without the toolchain's binutils) the suite says so.
        guard !notes.contains("skipped") else {
            #expect(notes.contains("swiftc, strip") || notes.contains("failed"))
            return
        }
        func value(_ design: String) -> Int? {
            (rows.first { $0["design"] as? String == design }?["value"] as? Double).map { Int($0) }
        }
        let total = try #require(value("size LNoteStore adds"))
        let parts = rows.filter { ($0["design"] as? String)?.hasPrefix("  of which") == true }
            .compactMap { ($0["value"] as? Double).map { Int($0) } }
        #if os(Linux)
        #expect(parts.count == 5)
        #expect(parts.reduce(0, +) == total)
        #expect(try #require(value("  of which code (.text)")) > total / 4)
        #expect(try #require(value("  of which unwind tables (.eh_frame, .eh_frame_hdr)")) > 0)
        #endif
        #expect(total > 100_000)
        // Dead stripping only removes: every object linked whole is at least the stripped link.
        #expect(try #require(value("size LNoteStore adds, every object linked whole (no dead stripping)")) >= total)
        // The example notes client (more of the API, covers and sync merge) links more than the small client.
        let example = try #require(
            value("size an app like Tools/notes-example gains (LNoteStore, LNoteRender, LNoteSync)"))
        #expect(example > total)
    }
}
