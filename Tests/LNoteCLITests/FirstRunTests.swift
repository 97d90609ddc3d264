import Foundation
import LNoteFormat
import LNoteStore
import Testing

/// What a newcomer sees and types in the first minutes: the demo's picture, package names,
/// help that matches behaviour, error messages that say what will help, the benchmarks run
/// from anywhere, progress only on a terminal.
@Suite struct FirstRunTests {
    @Test(
        "demo: the killed writer's strokes continue below the first session's, in gray; black ones are the first session's"
    )
    func demoPicture() async throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let r = try Tool.run(["demo", dir])  // 300 strokes: more than a US Letter page holds with the writer's
        #expect(r.status == 0, "\(r.stdout)\(r.stderr)")
        #expect(r.stdout.contains("black, the 300 strokes"))
        let package = try #require(
            try FileManager.default.contentsOfDirectory(atPath: dir).first { $0.hasSuffix(".lnote") })
        let acked = Set(
            try String(contentsOfFile: dir + "/acknowledged.txt", encoding: .utf8).split(separator: "\n").map(
                String.init))
        let document = try await Document.open(
            path: dir + "/" + package, readOnly: true, fileSystem: POSIXFileSystem.shared)
        let state = try await document.page(at: 0).state
        try await document.close()
        let strokes = state.elements.compactMap { element -> Stroke? in
            if case .stroke(let s) = element { return s } else { return nil }
        }
        let black = strokes.filter { $0.ink == .pen }
        let gray = strokes.filter { $0.ink != .pen }
        #expect(black.count == 300)
        #expect(gray.count >= acked.count && !acked.isEmpty)
        #expect(acked.isSubset(of: Set(gray.map(\.key.description))), "every acknowledged id is a gray stroke")
        #expect(gray.allSatisfy { $0.ink.red == 150 && $0.ink.green == 150 })
        // Laid out where there is room: no gray stroke sits above the line the first session ended on.
        let lastLine = try #require(black.last.map(Self.middleY))
        let highest = try #require(gray.map(Self.middleY).min())
        #expect(
            highest >= lastLine - 200,
            "gray strokes start at y \(highest / 10) pt, the first session ended at \(lastLine / 10) pt")
        let lowest = strokes.flatMap { $0.points.map { Int($0.y) } }.max() ?? 0
        #expect(lowest < Int(state.metadata.height), "the page holds all the writing")
        let png = try Data(contentsOf: URL(fileURLWithPath: dir + "/page.png"))
        let height = png.count > 24 ? png[20..<24].reduce(0) { $0 << 8 | Int($1) } : 0
        #expect(height == Int((1224.0 * Double(state.metadata.height) / Double(state.metadata.width)).rounded()))
    }

    static func middleY(_ s: Stroke) -> Int {
        let ys = s.points.map { Int($0.y) }
        return ((ys.min() ?? 0) + (ys.max() ?? 0)) / 2
    }

    @Test("D-001 gen makes <uuid>.lnote packages in a library folder and refuses other package names up front")
    func genNames() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let bad = try Tool.run(["gen", dir + "/notes.lnote", "--strokes", "3"])
        #expect(bad.status == 16)
        #expect(bad.stderr.contains("named <uuid>.lnote"))
        #expect(!FileManager.default.fileExists(atPath: dir + "/notes.lnote"))

        let library = dir + "/library"
        let made = try Tool.run(["gen", library, "--documents", "2", "--pages", "2", "--strokes", "5"])
        #expect(made.status == 0, "\(made.stderr)")
        let names = try FileManager.default.contentsOfDirectory(atPath: library)
        #expect(names.count == 2)
        #expect(
            names.allSatisfy {
                UUID(uuidString: String($0.dropLast(6))) != nil && $0.hasSuffix(".lnote") && $0 == $0.lowercased()
            })
        let ls = try Tool.run(["ls", library])
        #expect(ls.status == 0)
        #expect(!ls.stdout.contains("ERROR"))
        #expect(ls.stdout.components(separatedBy: "2 pages").count == 3)

        let named = dir + "/\(UUID().uuidString.lowercased()).lnote"
        #expect(try Tool.run(["gen", named, "--strokes", "4"]).status == 0)
        #expect(try Tool.run(["fsck", dir]).status == 0)
    }

    @Test("the README's gen examples name a library folder or a <uuid>.lnote package")
    func readmeGenExamples() throws {
        let readme = try String(contentsOfFile: Tool.packageRoot + "/README.md", encoding: .utf8)
        let uses = readme.components(separatedBy: "lnote gen ").dropFirst().map {
            $0.prefix { $0 != " " && $0 != "`" && $0 != "\n" }
        }
        #expect(!uses.isEmpty)
        for target in uses {
            #expect(!target.hasSuffix(".lnote") || target.hasSuffix("<uuid>.lnote"), "README: lnote gen \(target)")
        }
    }

    @Test("gen without --strokes writes the 100 strokes a page its help shows as the default")
    func genDefaultStrokes() throws {
        let help = try Tool.run(["gen", "--help"]).stdout
        #expect(help.contains("[--strokes M]"))
        #expect(help.contains("strokes per page (default 100)"))
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let package = dir + "/\(UUID().uuidString.lowercased()).lnote"
        #expect(try Tool.run(["gen", package]).status == 0)
        let info = try Tool.json(try Tool.run(["info", package, "--json"]).stdout)
        #expect((info["pages"] as? [[String: Any]])?.map { $0["elements"] as? Int } == [100])
    }

    @Test("ls and info say what a path is and what will help")
    func errorsThatHelp() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let missing = try Tool.run(["ls", dir + "/nonexistent"])
        #expect(missing.status == 8)
        #expect(missing.stderr.contains("does not exist"))
        _ = FileManager.default.createFile(atPath: dir + "/file", contents: Data())
        #expect(try Tool.run(["ls", dir + "/file"]).stderr.contains("is not a folder"))

        try FileManager.default.createDirectory(atPath: dir + "/plain", withIntermediateDirectories: true)
        let plain = try Tool.run(["info", dir + "/plain"])
        #expect(plain.status == 8)
        #expect(plain.stderr.contains("is not a package"))
        #expect(plain.stderr.contains("lnote gen") && !plain.stderr.contains("fsck --repair"))

        let library = dir + "/library"
        #expect(try Tool.run(["gen", library, "--strokes", "2"]).status == 0)
        let onLibrary = try Tool.run(["info", library])
        #expect(onLibrary.stderr.contains("is a library folder"))
        #expect(onLibrary.stderr.contains("lnote ls \(library)"))
        #expect(try Tool.run(["info", dir + "/absent.lnote"]).stderr.contains("does not exist"))

        // A package whose document.json is gone: fsck --repair is the suggestion, and it helps.
        let package = library + "/" + (try #require(try FileManager.default.contentsOfDirectory(atPath: library).first))
        try FileManager.default.removeItem(atPath: package + "/document.json")
        let damaged = try Tool.run(["info", package])
        #expect(damaged.status == 8)
        #expect(damaged.stderr.contains("'lnote fsck --repair \(package)'"))
        #expect(try Tool.run(["fsck", "--repair", package]).status == 1)
        #expect(try Tool.run(["info", package]).status == 0)
    }

    @Test(
        "lnote-bench run from outside the checkout finds the SQLite peer beside it, builds it in the checkout, or says how to get it"
    )
    func benchPeerFromElsewhere() throws {
        let elsewhere = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: elsewhere) }
        // The built executable, run from another folder: finds (or builds) the peer of its checkout.
        let built = try Tool.run(["bench", "--peer-status"], in: elsewhere)
        #expect(built.status == 0, "\(built.stderr)")
        #expect(built.stdout.contains("Tools/bench-sqlite/.build/sqlite_peer"))
        // A copy outside any checkout: says how to get the peer.
        let copy = elsewhere + "/lnote-bench"
        try FileManager.default.copyItem(atPath: Tool.built("lnote-bench"), toPath: copy)
        let lost = try Tool.run(["--peer-status"], executable: copy, in: elsewhere)
        #expect(lost.status == 8)
        #expect(lost.stderr.contains("Tools/bench-sqlite/build.sh") && lost.stderr.contains("LNOTE_SQLITE_PEER"))
        // With the peer beside it: found there.
        try FileManager.default.copyItem(
            atPath: Tool.packageRoot + "/Tools/bench-sqlite/.build/sqlite_peer", toPath: elsewhere + "/sqlite_peer")
        let beside = try Tool.run(["--peer-status"], executable: copy, in: elsewhere)
        #expect(beside.stdout == "SQLite peer: \(elsewhere)/sqlite_peer\n")
        // lnote without lnote-bench beside it: says how to build it.
        let lonely = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: lonely) }
        try FileManager.default.copyItem(atPath: Tool.executable, toPath: lonely + "/lnote")
        let forward = try Tool.run(["bench", "--quick"], executable: lonely + "/lnote", in: lonely)
        #expect(forward.status == 8)
        #expect(forward.stderr.contains("swift build -c release --product lnote-bench"))
    }

    @Test("gen of a library, fsck of a library and bench show progress on a terminal and nothing when piped")
    func progressOnlyOnTerminal() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let piped = try Tool.run(["gen", dir, "--documents", "3", "--strokes", "2"])
        #expect(piped.status == 0)
        #expect(piped.stderr.isEmpty)
        let fsckPiped = try Tool.run(["fsck", dir])
        #expect(fsckPiped.status == 0 && fsckPiped.stderr.isEmpty)

        let lnote = Tool.executable
        let gen = try Tool.runOnTerminal("\(lnote) gen \(dir) --documents 3 --strokes 2")
        #expect(gen.status == 0)
        #expect(gen.stdout.contains("gen: 3/3"))
        let fsck = try Tool.runOnTerminal("\(lnote) fsck \(dir)")
        #expect(fsck.stdout.contains("fsck: 6/6"))
        let out = dir + "/bench"
        let bench = try Tool.runOnTerminal("\(lnote) bench --quick --suite crc --out \(out) --dir \(dir)")
        #expect(bench.status == 0, "\(bench.stdout)")
        #expect(bench.stdout.contains("bench: 1/1"))
        let benchPiped = try Tool.run(["bench", "--quick", "--suite", "crc", "--out", out, "--dir", dir])
        #expect(benchPiped.status == 0)
        #expect(benchPiped.stderr.isEmpty, "\(benchPiped.stderr)")
    }

    @Test("D-032 a gen that fails part-way (file size limit: EFBIG) leaves no package or staging folder behind")
    func genFailingPartWay() throws {
        let dir = Tool.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let library = dir + "/library"
        // 512 KiB a file allowed (ulimit -f counts 512-byte blocks in sh); SIGXFSZ ignored so
        // the write fails with EFBIG instead of killing the process.
        let r = try Tool.shell(
            "trap '' XFSZ; ulimit -f 1024; exec \(Tool.executable) gen \(library) --pages 3 --strokes 1500")
        #expect(r.status == 8, "\(r.stdout)\(r.stderr)")
        #expect(r.stderr.contains("gen failed while filling"))
        #expect(r.stderr.contains("the partial package was removed"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: library).isEmpty)
        #expect(try Tool.run(["ls", library]).stdout.contains("no documents"))
    }
}
