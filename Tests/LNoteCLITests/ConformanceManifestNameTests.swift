import Foundation
import Testing

/// `lnote conformance DIR` reads only inside DIR: a manifest is input, and names in it that
/// would reach outside (an absolute path, `..`, a symbolic link) are refused with a clear
/// failure line, the file never opened (Spec/README.md's manifest; D-002's no-follow rule).
@Suite("conformance: manifest names stay in the folder")
struct ConformanceManifestNameTests {
    @Test(
        "D-002 conformance refuses manifest names that escape the folder ('..', absolute, a link) and fails those vectors"
    )
    func escapingNamesRefused() throws {
        let root = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let dir = root + "/vectors", outside = root + "/outside"
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: outside, withIntermediateDirectories: true)
        // 16 points of zeros, which a points vector expecting 0 points would read.
        try Data(repeating: 0, count: 64).write(to: URL(fileURLWithPath: outside + "/secret.bin"))
        try FileManager.default.createSymbolicLink(
            atPath: dir + "/link.bin", withDestinationPath: outside + "/secret.bin")
        let names = ["../outside/secret.bin", outside + "/secret.bin", "link.bin"]
        let entries = names.map { name in
            "{\"name\": \(String(data: try! JSONSerialization.data(withJSONObject: [name]), encoding: .utf8)!.dropFirst().dropLast()), \"kind\": \"points\", \"count\": 0, \"expect\": {}}"
        }
        let manifest = "{\"format\": \"lnote.conformance\", \"vectors\": [\(entries.joined(separator: ", "))]}"
        try Data(manifest.utf8).write(to: URL(fileURLWithPath: dir + "/manifest.json"))

        let r = try Tool.run(["conformance", dir])
        #expect(r.status == 4, "\(r.stdout)\(r.stderr)")
        for name in names {
            let line = r.stdout.split(separator: "\n").first { $0.contains(name) } ?? ""
            #expect(line.hasPrefix("FAIL") && line.contains("refused"), "\(name): \(line)")
        }
        #expect(r.stdout.contains("0 passed, 3 failed"), "\(r.stdout)")
    }
}
