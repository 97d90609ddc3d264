import LNoteCheck
import LNoteFormat
import LNoteConformance
import LNoteSimulation
import LNoteStore
import Testing

/// Rules of Spec/format.md that bind writers, or packages in ways a checked-in vector cannot
/// show (symbolic links, 16 MiB files, crash states): checked here so that every requirement
/// ID is exercised by a test or a vector.
@Suite("Writer and package rules")
struct WriterRuleTests {
    static let pageID = VectorFixturesForTests.page

    @Test(
        "W-001, W-002, W-006: an append acknowledged at .data is durable with its new journal; at .none it need not be")
    func acknowledgedAppendIsDurable() async throws {
        for level in [Durability.none, .data] {
            let fs = SimulatedFileSystem()
            try fs.makeDirectory("/p")
            try fs.syncDirectory("/")  // the folder itself is durable (M-003)
            let page = try await Page.open(
                directory: "/p", id: Self.pageID, options: PageOptions(durability: level),
                fileSystem: fs)
            let stroke = Stroke(
                id: UUIDBytes(string: "e1e00000-0000-4000-8000-000000000001")!, ink: .pen,
                points: [Point(x: 1, y: 2, radius: 3, pressure: 4, time: 0)])
            try await page.append(.stroke(stroke))
            let durable = fs.durableSnapshot().files
            let journal = "/p/" + PageFileNames.journal(Self.pageID, base: 0)
            if level == .none {
                // Nothing synced: a power loss may keep nothing (the level survives app crashes only).
                #expect(durable[journal] == nil || durable[journal]?.count ?? 0 <= 64)
            } else {
                // The journal's directory entry and the frame are durable once the call returns.
                let bytes = try #require(durable[journal])
                let scan = FrameScanner.scan(
                    bytes, from: 64, salt: JournalHeader.decode(bytes).header?.salt ?? 0,
                    firstSequence: 1, mode: .strict)
                #expect(scan.frames.count == 1)
                #expect(scan.refused == nil)
            }
        }
    }

    @Test("D-003: document.json written atomically is old or new in every crash state, never a mixture")
    func atomicJSONWrite() throws {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/d")
        try fs.syncDirectory("/")
        let old = Array("{\"old\":1}".utf8), new = Array("{\"new\":2,\"longer\":true}".utf8)
        try fs.writeFileAtomically("/d/document.json", old, durability: .data)
        try fs.writeFileAtomically("/d/document.json", new, durability: .data)
        var states = 0
        for state in fs.crashStates() {
            states += 1
            let content = state.files["/d/document.json"]
            #expect(content == nil || content == old || content == new, "\(state)")
        }
        #expect(states > 1)
        #expect(fs.durableSnapshot().files["/d/document.json"] == new)
    }

    @Test("D-010: a document.json above documentJSONBytesMax is rejected before it is parsed")
    func oversizedDocumentRejected() {
        let bytes = [UInt8](repeating: 0x20, count: FormatLimits.documentJSONBytesMax + 1)
        #expect(throws: LNoteError.self) { try DocumentFile.decode(bytes) }
        #expect(ManifestFile.decode([UInt8](repeating: 0x20, count: FormatLimits.manifestJSONBytesMax + 1)) == nil)
    }

    @Test("D-002: fsck reports a symbolic link inside a package and does not follow it")
    func symlinkInPackage() throws {
        let fs = POSIXFileSystem()
        let root = "/tmp/lnote-symlink-\(getpid()).lnote"
        let suite = ConformanceVectors.suite()
        try fs.makeDirectory(root)
        for file in suite.files
        where file.path.hasPrefix("ok-package-one-page.lnote/") && !file.path.contains("/pages/") {
            try fs.writeFileAtomically(
                root + "/" + file.path.split(separator: "/").dropFirst().joined(separator: "/"),
                file.bytes, durability: .none)
        }
        #expect(symlink("/etc", root + "/pages") == 0)
        let report = try Fsck.check(path: root)
        #expect(report.findings.contains { $0.kind == "symlink" && $0.severity == .error })
        #expect(report.status & 4 != 0)
        _ = unlink(root + "/pages")
        Repo.removeTree(root)
    }

    @Test("E-005: quantization rounds to nearest with ties away from zero and refuses non-finite values")
    func quantization() throws {
        let p = try Quantize.point(InputPoint(x: -0.25, y: 0.25, radius: 0.25, force: 0.0005, timeOffset: 0))
        #expect(p.x == -3 && p.y == 3 && p.radius == 3 && p.pressure == 1)
        #expect(throws: ElementValidationError.self) {
            try Quantize.point(InputPoint(x: .nan, y: 0, radius: 1, force: 1, timeOffset: 0))
        }
        #expect(throws: ElementValidationError.self) {
            try Quantize.point(InputPoint(x: 3e8, y: 0, radius: 1, force: 1, timeOffset: 0))
        }
    }
}

enum VectorFixturesForTests {
    static let page = UUIDBytes(string: "5a6e0000-0000-4000-8000-000000000001")!
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
