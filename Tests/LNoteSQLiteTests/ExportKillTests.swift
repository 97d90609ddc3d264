import Foundation
import LNoteFormat
import LNoteTestSupport
@testable import LNoteSQLite
import Testing

/// Runs the built `lnote` (`.build/debug/lnote`, built because this target depends on it).
enum LNoteTool {
    static let executable: String = {
        var url = URL(fileURLWithPath: #filePath)
        for _ in 0..<3 { url.deleteLastPathComponent() }  // Tests/LNoteSQLiteTests/<this file>
        for candidate in [".build/debug/lnote", ".build/release/lnote"]
        where FileManager.default.isExecutableFile(atPath: url.path + "/" + candidate) {
            return url.path + "/" + candidate
        }
        return url.path + "/.build/debug/lnote"
    }()

    /// Starts `lnote args...`; standard output goes to `output` (or nowhere).
    static func start(_ args: [String], output: String? = nil) throws -> Process {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = args
        var env = ProcessInfo.processInfo.environment
        env["SWIFT_BACKTRACE"] = "enable=no"
        process.environment = env
        if let output {
            _ = FileManager.default.createFile(atPath: output, contents: nil)
            process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: output))
        } else {
            process.standardOutput = FileHandle.nullDevice
        }
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    /// Runs `lnote args...` to completion: exit status and standard output.
    static func run(_ args: [String], in dir: String) throws -> (status: Int32, stdout: String) {
        let out = dir + "/out-\(UUID().uuidString).txt"
        let p = try start(args, output: out)
        p.waitUntilExit()
        let text = (try? String(contentsOfFile: out, encoding: .utf8)) ?? ""
        try? FileManager.default.removeItem(atPath: out)
        return (p.terminationStatus, text)
    }
}

@Suite("lnote export-sqlite and import-sqlite, the built tool")
struct ExportKillTests {
    /// For each package: the database holds nothing of it, or all of it equal; returns
    /// how many it holds.
    static func checkWholeOrNothing(_ db: String, _ originals: [DocumentContent]) throws -> Int {
        guard FileManager.default.fileExists(atPath: db) else { return 0 }
        let connection = try SQLiteConnection(path: db, create: false)
        guard try connection.integer("PRAGMA application_id") == Int64(SQLiteSchema.applicationID) else { return 0 }
        #expect(try connection.text("PRAGMA integrity_check") == "ok")
        #expect(try connection.integer("SELECT count(*) FROM pragma_foreign_key_check") == 0)
        let reader = try DatabaseContentReader(connection)
        var present = 0
        for original in originals {
            guard let stored = try reader.read(original.id) else { continue }
            present += 1
            #expect(
                ContentComparison.verify(expected: original, actual: stored).isEqual,
                "document \(original.id) is partial or differs")
        }
        #expect(try connection.integer("SELECT count(*) FROM documents") == Int64(present))
        return present
    }

    @Test("Q-040 Q-042 SIGKILL at random moments leaves each document whole or absent; a rerun finishes the export")
    func killedExportIsWholeOrNothingAndResumes() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 8, strokesPerPage: 60, seed: 17)
        var originals: [DocumentContent] = []
        for p in paths { originals.append(try await PackageContentReader.read(path: p)) }
        // How long a whole export takes here, to aim the kills inside it.
        let clock = ContinuousClock()
        let start = clock.now
        #expect(
            try LNoteTool.run(["export-sqlite", dir.file("lib"), "--out", dir.file("timing.db")], in: dir.path).status
                == 0)
        let fullUs = max(UInt64(SQLiteExport.seconds(clock.now - start) * 1e6), 50_000)
        var rng = UInt64(0x5EED_5A1)
        var killedRunning = 0, partialStates = Set<Int>()
        // At least 6 rounds, more (up to 20) until 4 kills landed while the export ran and one
        // between two documents' commits: on a loaded machine a kill aimed by the timing run can
        // land after the export ended, which proves nothing.
        var round = 0
        while round < 20,
            round < 6 || killedRunning < 4 || !partialStates.contains(where: { $0 > 0 && $0 < originals.count })
        {
            defer { round += 1 }
            let db = dir.file("notes-\(round).db")
            rng = rng &* 6364136223846793005 &+ 1442695040888963407
            let delay = (rng >> 33) % (fullUs * 8 / 10)
            let process = try LNoteTool.start(["export-sqlite", dir.file("lib"), "--out", db])
            usleep(UInt32(delay))
            if process.isRunning { killedRunning += 1 }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
            let present = try Self.checkWholeOrNothing(db, originals)
            partialStates.insert(present)
            print("kill round \(round): after \(delay) us of \(fullUs), \(present) of 8 documents in the database")
            // The rerun finishes the job: what was committed is left alone, the rest written.
            let finish = try LNoteTool.run(["export-sqlite", dir.file("lib"), "--out", db, "--json"], in: dir.path)
            #expect(finish.status == 0)
            let report = try JSONDecoder().decode(SQLiteTransferReport.self, from: Data(finish.stdout.utf8))
            #expect(report.documents.filter { $0.status == "unchanged" }.count == present)
            #expect(report.documents.filter { $0.status == "exported" }.count == originals.count - present)
            #expect(try Self.checkWholeOrNothing(db, originals) == originals.count)
        }
        #expect(killedRunning >= 4, "the kills landed while the export was running (\(killedRunning) of \(round))")
        #expect(
            partialStates.contains { $0 > 0 && $0 < originals.count },
            "a kill landed between two documents' commits: \(partialStates.sorted()), full export \(fullUs) us")
    }

    @Test("Q-053 --json prints the report, exit 0 when verified, 4 when a document fails, 16 without --out")
    func reportAndExitStatus() async throws {
        let dir = TemporaryFolder("lnote-sqlite")
        defer { dir.remove() }
        let paths = try await SQLiteTestLibrary.make(in: dir.file("lib"), documents: 2, strokesPerPage: 8)
        let ok = try LNoteTool.run(
            ["export-sqlite", dir.file("lib"), "--out", dir.file("n.db"), "--json"], in: dir.path)
        #expect(ok.status == 0)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(ok.stdout.utf8)) as? [String: Any])
        #expect(json["format"] as? String == "lnote.sqlite-transfer" && json["direction"] as? String == "export")
        let documents = try #require(json["documents"] as? [[String: Any]])
        #expect(documents.count == 2 && documents.allSatisfy { $0["status"] as? String == "exported" })
        let pages = try #require((documents[0]["verification"] as? [String: Any])?["pages"] as? [[String: Any]])
        #expect(pages.count == 3 && (pages[0]["pointsDigest"] as? [String])?.count == 2)

        let human = try LNoteTool.run(["export-sqlite", paths[0], "--out", dir.file("n.db")], in: dir.path)
        #expect(human.status == 0 && human.stdout.contains("unchanged") && human.stdout.contains("1 documents"))
        let back = try LNoteTool.run(
            ["import-sqlite", dir.file("n.db"), "--out", dir.file("back"), "--json"], in: dir.path)
        #expect(back.status == 0 && back.stdout.contains("\"imported\""))

        try SQLiteTestLibrary.damageLargestPage(paths[1])
        let failed = try LNoteTool.run(["export-sqlite", dir.file("lib"), "--out", dir.file("m.db")], in: dir.path)
        #expect(failed.status == 4 && failed.stdout.contains("failed"))
        #expect(try LNoteTool.run(["export-sqlite", dir.file("lib")], in: dir.path).status == 16)
        #expect(
            try LNoteTool.run(["import-sqlite", dir.file("missing.db"), "--out", dir.file("x")], in: dir.path).status
                == 8
        )
    }
}
