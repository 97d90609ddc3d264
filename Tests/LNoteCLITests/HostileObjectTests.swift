import Foundation
import Synchronization
import Testing

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The template package's folder, for the exit handler that removes it (a C function cannot
/// capture it).
private let hostileTemplateFolder = Mutex<String?>(nil)

/// The proof that every hostile file-system object (FIFO, socket, symbolic link at every
/// path the engine touches, hard link, another document's document.json, control characters
/// in a title) against every `lnote` subcommand, each under a timeout, asserting: no hang, no
/// trap, nothing outside the package changed (the parent folder is snapshotted before and
/// after), no byte inside the package destroyed by a reader or by fsck, and a clear error or
/// finding where the command meets the object.
@Suite(.serialized) struct HostileObjectTests {
    enum Command: String, CaseIterable {
        case fsck, fsckJSON = "fsck --json", repair = "fsck --repair", dump, dumpFile = "dump FILE", info, render, ls,
            compact, stress

        var isWriter: Bool { self == .compact || self == .stress }
        var isFsck: Bool { self == .fsck || self == .fsckJSON || self == .repair }
        static let readers: Set<Command> = [.dump, .info, .render]
        static let writers: Set<Command> = [.compact, .stress]

        func arguments(_ f: HostileFixture) -> [String] {
            let snapshot = f.path("pages/\(f.pageIDs[0]).content")
            switch self {
            case .fsck: return ["fsck", f.package]
            case .fsckJSON: return ["fsck", f.package, "--json"]
            case .repair: return ["fsck", f.package, "--repair"]
            case .dump: return ["dump", f.package]
            case .dumpFile: return ["dump", snapshot]
            case .info: return ["info", f.package]
            case .render: return ["render", f.package, "--page", "0", "-o", f.scratch + "/out.png"]
            case .ls: return ["ls", f.parent]
            case .compact: return ["compact", f.package]
            case .stress: return ["stress", f.package, "--strokes", "3", "--ack-log", f.scratch + "/acks.txt"]
            }
        }
    }

    struct Hostile {
        var name: String
        /// Words one of which a refusal or finding must contain.
        var clues: [String]
        /// Commands that meet the object and must refuse (exit non-zero, with a clue).
        var mustRefuse: Set<Command>
        /// True when fsck must report the object.
        var fsckReports = true
        /// The exit status `fsck --repair` must give, when the object is one repair can put right.
        var repairExit: Int32? = nil
        /// Commands that may rebuild `manifest.json` in place of an unusable one without keeping
        /// its bytes: the library listing (D-031; the manifest is a cache of document.json).
        var rebuildsManifest: Set<Command> = []
        var setup: (HostileFixture) throws -> Void
    }

    static let notRegular = ["not a regular file", "notRegularFile"]
    static let linked = ["symbolic link", "symlink"]
    static let readersAndWriters = Command.readers.union(Command.writers)

    /// Whether this machine lets the tests make a device node (root with CAP_MKNOD).
    static let canMakeDevices: Bool = {
        let probe = Tool.folder() + "/zero"
        defer { try? FileManager.default.removeItem(atPath: (probe as NSString).deletingLastPathComponent) }
        return HostileFixture.makeZeroDevice(probe)
    }()

    static func objects() -> [Hostile] {
        func device(_ rel: @escaping (HostileFixture) -> String) -> (HostileFixture) throws -> Void {
            { f in try f.replace(rel(f)) { guard HostileFixture.makeZeroDevice($0) else { throw POSIXError(.EPERM) } } }
        }
        let devices: [Hostile] =
            !canMakeDevices
            ? []
            : [
                Hostile(
                    name: "device (zeros) document.json", clues: notRegular, mustRefuse: readersAndWriters,
                    setup: device { _ in "document.json" }),
                Hostile(
                    name: "device (zeros) journal", clues: notRegular, mustRefuse: readersAndWriters,
                    setup: device { "pages/" + ($0.journal() ?? "missing") })
            ]
        return devices + baseObjects()
    }

    static func baseObjects() -> [Hostile] {
        func fifo(_ rel: @escaping (HostileFixture) -> String) -> (HostileFixture) throws -> Void {
            { f in try f.replace(rel(f)) { try HostileFixture.makeFIFO($0) } }
        }
        return [
            Hostile(
                name: "FIFO document.json", clues: notRegular, mustRefuse: readersAndWriters,
                setup: fifo { _ in "document.json" }),
            Hostile(
                name: "socket document.json", clues: notRegular, mustRefuse: readersAndWriters,
                setup: { f in try f.replace("document.json") { _ = try HostileFixture.makeSocket($0) } }),
            Hostile(
                name: "FIFO manifest.json", clues: notRegular, mustRefuse: [], setup: fifo { _ in "manifest.json" }),
            Hostile(name: "FIFO .lock", clues: notRegular, mustRefuse: Command.writers, setup: fifo { _ in ".lock" }),
            Hostile(
                name: "FIFO snapshot", clues: notRegular, mustRefuse: readersAndWriters.union([.dumpFile]),
                setup: fifo { "pages/\($0.pageIDs[0]).content" }),
            Hostile(
                name: "FIFO journal", clues: notRegular, mustRefuse: readersAndWriters,
                setup: fifo { "pages/" + ($0.journal() ?? "missing") }),
            Hostile(
                name: "link package folder", clues: linked,
                mustRefuse: readersAndWriters.union([.fsck, .fsckJSON, .repair]),
                fsckReports: false,
                setup: { f in
                    let target = f.outside + "/real.lnote"
                    try FileManager.default.moveItem(atPath: f.package, toPath: target)
                    try FileManager.default.createSymbolicLink(atPath: f.package, withDestinationPath: target)
                }),
            Hostile(
                name: "link pages/", clues: linked, mustRefuse: readersAndWriters,
                setup: { try $0.linkOutside("pages") }),
            Hostile(
                name: "link assets/", clues: linked, mustRefuse: readersAndWriters,
                setup: { try $0.linkOutside("assets") }),
            Hostile(
                name: "link thumbnails/", clues: linked, mustRefuse: readersAndWriters,
                setup: { try $0.linkOutside("thumbnails") }),
            Hostile(
                name: "link lost+found/", clues: linked, mustRefuse: readersAndWriters,
                setup: { f in
                    try FileManager.default.createDirectory(
                        atPath: f.path("lost+found"), withIntermediateDirectories: true)
                    try f.linkOutside("lost+found")
                }),
            Hostile(
                name: "link snapshot", clues: linked, mustRefuse: readersAndWriters.union([.dumpFile]),
                setup: { try $0.linkOutside("pages/\($0.pageIDs[0]).content") }),
            Hostile(
                name: "link journal", clues: linked, mustRefuse: readersAndWriters,
                setup: { try $0.linkOutside("pages/" + ($0.journal() ?? "missing")) }),
            Hostile(
                name: "link document.json", clues: linked, mustRefuse: readersAndWriters,
                setup: { try $0.linkOutside("document.json") }),
            Hostile(
                name: "link manifest.json", clues: linked, mustRefuse: [],
                setup: { try $0.linkOutside("manifest.json") }),
            Hostile(
                name: "link .lock", clues: linked, mustRefuse: Command.writers, setup: { try $0.linkOutside(".lock") }),
            Hostile(
                name: "link .content.tmp", clues: linked, mustRefuse: Command.writers,
                setup: { try $0.linkOutside("pages/\($0.pageIDs[0]).content.tmp") }),
            Hostile(
                name: "FIFO .content.tmp", clues: ["FIFO", "not a regular file"], mustRefuse: Command.writers,
                setup: fifo { "pages/\($0.pageIDs[0]).content.tmp" }),
            Hostile(
                name: "link document.json.tmp", clues: linked, mustRefuse: [],
                setup: { try $0.linkOutside("document.json.tmp") }),
            Hostile(
                name: "FIFO asset", clues: notRegular, mustRefuse: [],
                setup: fifo { _ in "assets/\(UUID().uuidString.lowercased()).png" }),
            Hostile(
                name: "link thumbnail", clues: linked, mustRefuse: [],
                setup: { f in
                    try FileManager.default.createDirectory(
                        atPath: f.path("thumbnails"), withIntermediateDirectories: true)
                    try f.linkOutside("thumbnails/\(f.pageIDs[0]).png")
                }),
            Hostile(
                name: "hard-linked journal", clues: ["hardLink", "hard link"], mustRefuse: [.stress],
                setup: { f in
                    guard let journal = f.journal() else { throw POSIXError(.ENOENT) }
                    guard link(f.path("pages/" + journal), f.outside + "/hardlink.journal") == 0 else {
                        throw POSIXError(.EIO)
                    }
                }),
            // P-020: a 5 GiB sparse tail (no disk used) after the real frames; a snapshot too.
            Hostile(
                name: "5 GiB sparse journal", clues: ["zeroFill"], mustRefuse: [], fsckReports: false,
                setup: { f in
                    guard let journal = f.journal() else { throw POSIXError(.ENOENT) }
                    guard truncate(f.path("pages/" + journal), 5 << 30) == 0 else { throw POSIXError(.EIO) }
                }),
            Hostile(
                name: "5 GiB sparse snapshot", clues: ["zeroFill"], mustRefuse: [], fsckReports: false,
                setup: { f in
                    guard truncate(f.path("pages/\(f.pageIDs[0]).content"), 5 << 30) == 0 else {
                        throw POSIXError(.EIO)
                    }
                }),
            // K-027: a JSON file past every read limit is moved aside unread when repair replaces it.
            Hostile(
                name: "100 GiB sparse manifest.json", clues: ["staleManifest"], mustRefuse: [], repairExit: 1,
                rebuildsManifest: [.ls],
                setup: { f in
                    guard truncate(f.path("manifest.json"), 100 << 30) == 0 else { throw POSIXError(.EIO) }
                }),
            Hostile(
                name: "100 GiB sparse document.json", clues: ["documentInvalid", "the limit is"],
                mustRefuse: readersAndWriters,
                repairExit: 1,
                setup: { f in
                    guard truncate(f.path("document.json"), 100 << 30) == 0 else { throw POSIXError(.EIO) }
                }),
            // D-051: information for fsck (a derived file), re-rendered by repair after it is moved aside.
            Hostile(
                name: "100 GiB sparse thumbnail", clues: ["badThumbnail"], mustRefuse: [], fsckReports: false,
                repairExit: 0,
                setup: { f in
                    guard truncate(f.path("thumbnails/\(f.pageIDs[0]).png"), 100 << 30) == 0 else {
                        throw POSIXError(.EIO)
                    }
                }),
            Hostile(
                name: "foreign document.json", clues: ["folderNameMismatch", "disagrees with the folder name"],
                mustRefuse: readersAndWriters,
                setup: { f in
                    var doc = try Tool.json(String(contentsOfFile: f.path("document.json"), encoding: .utf8))
                    doc["id"] = UUID().uuidString.lowercased()
                    try JSONSerialization.data(withJSONObject: doc).write(
                        to: URL(fileURLWithPath: f.path("document.json")))
                })
        ]
    }

    /// The generated package every fixture copies (2 pages, snapshot plus journals each); its
    /// folder is removed when the test process exits.
    static let template: String = {
        let dir = Tool.folder()
        hostileTemplateFolder.withLock { $0 = dir }
        atexit { hostileTemplateFolder.withLock { $0.map { try? FileManager.default.removeItem(atPath: $0) } } }
        let path = dir + "/\(UUID().uuidString.lowercased()).lnote"
        _ = try? Tool.run(["gen", path, "--pages", "2", "--strokes", "6", "--journal-frames", "3", "--seed", "7"])
        // gen makes assets/ only when a document has an asset; the matrix needs the folder
        // (a link at assets/, an asset FIFO), as any package with an image has it.
        try? FileManager.default.createDirectory(atPath: path + "/assets", withIntermediateDirectories: true)
        return path
    }()

    @Test(
        "D-002 D-004 D-005 K-030 K-032 K-033 P-020 every hostile object x every lnote subcommand: no hang, no trap, nothing outside touched, no byte destroyed, a clear error or finding"
    )
    func matrix() throws {
        var table: [String] = []
        let commands = Command.allCases
        table.append("| object | " + commands.map(\.rawValue).joined(separator: " | ") + " |")
        table.append("|---|" + commands.map { _ in "---" }.joined(separator: "|") + "|")
        for object in Self.objects() {
            var row: [String] = []
            for command in commands {
                row.append(try runCell(object, command))
            }
            table.append("| \(object.name) | " + row.joined(separator: " | ") + " |")
        }
        let text = table.joined(separator: "\n")
        print("HOSTILE MATRIX\n" + text)
        try? text.write(toFile: NSTemporaryDirectory() + "/lnote-hostile-matrix.md", atomically: true, encoding: .utf8)
    }

    @Test(
        "K-030 K-027 D-002 a link or FIFO at pages/<page>.content.tmp blocks writers; fsck reports it, repair unlinks it without following it, writers work again"
    )
    func tempNameRepaired() throws {
        for kind in ["link", "fifo"] {
            let f = try HostileFixture.make(from: Self.template)
            defer { f.remove() }
            let temp = "pages/\(f.pageIDs[0]).content.tmp"
            if kind == "link" { try f.linkOutside(temp) } else { try HostileFixture.makeFIFO(f.path(temp)) }
            let outsideBefore = HostileFixture.tree(f.parent, skipping: f.package)
            #expect(try Tool.run(["compact", f.package], timeout: 20).result.status == 8, "\(kind)")
            let check = try Tool.run(["fsck", f.package], timeout: 20).result
            #expect(check.status == 4 && check.stdout.contains("leftoverTemp"), "\(kind): \(check.stdout)")
            let repair = try Tool.run(["fsck", f.package, "--repair"], timeout: 20).result
            #expect(repair.status == 1 && repair.stdout.contains("-> removed"), "\(kind): \(repair.stdout)")
            #expect(
                !FileManager.default.fileExists(atPath: f.path(temp))
                    && (try? FileManager.default.destinationOfSymbolicLink(atPath: f.path(temp))) == nil)
            #expect(try Tool.run(["fsck", f.package], timeout: 20).result.status == 0, "\(kind)")
            let compact = try Tool.run(["compact", f.package], timeout: 20).result
            #expect(compact.status == 0, "\(kind): \(compact.stderr)")
            #expect(
                HostileFixture.tree(f.parent, skipping: f.package) == outsideBefore,
                "\(kind): the link's target is untouched")
        }
    }

    /// One cell: a fresh fixture, the object, the command under a 20 s timeout, the checks.
    private func runCell(_ object: Hostile, _ command: Command) throws -> String {
        let f = try HostileFixture.make(from: Self.template)
        defer { f.remove() }
        var socketFD: Int32 = -1
        if object.name.hasPrefix("socket") {
            try f.replace("document.json") { socketFD = try HostileFixture.makeSocket($0) }
        } else {
            try object.setup(f)
        }
        defer { if socketFD >= 0 { close(socketFD) } }
        let outsideBefore = HostileFixture.tree(f.parent, skipping: f.package)
        let insideBefore = HostileFixture.contents(f.package)
        let cell = "\(object.name) x \(command.rawValue)"

        let (r, hung, trapped) = try Tool.run(command.arguments(f), timeout: 20)
        let output = r.stdout + r.stderr
        #expect(!hung, "\(cell): hung")
        #expect(!trapped && !output.contains("Fatal error"), "\(cell): trapped: \(output)")
        #expect(
            HostileFixture.tree(f.parent, skipping: f.package) == outsideBefore,
            "\(cell): something outside the package changed")
        if !command.isWriter {
            let after = Set(HostileFixture.contents(f.package).values)
            let rebuilt = object.rebuildsManifest.contains(command) ? f.path("manifest.json") : nil
            for (path, bytes) in insideBefore where !after.contains(bytes) && path != rebuilt {
                Issue.record("\(cell): the bytes of \(path) are gone (not in the package nor its lost+found)")
            }
        }
        let clue = object.clues.contains { output.contains($0) }
        if object.mustRefuse.contains(command) {
            #expect(
                r.status != 0 && clue, "\(cell): expected a refusal naming the object; status \(r.status): \(output)")
        }
        if command.isFsck && object.fsckReports {
            // A check leaves it (4); a repair corrects what the engine owns (1) or leaves it (4).
            let reported = command == .repair ? r.status & 5 != 0 : r.status & 4 != 0
            #expect(clue && reported, "\(cell): fsck must report the object; status \(r.status): \(output)")
        }
        if command == .repair, let want = object.repairExit {
            #expect(r.status == want, "\(cell): repair must put it right (exit \(want)); status \(r.status): \(output)")
        }
        if r.status != 0 && !command.isFsck {
            #expect(r.stderr.hasPrefix("Error:"), "\(cell): a failure must be a clear 'Error:' line: \(output)")
        }
        if hung { return "HANG" }
        if trapped { return "TRAP" }
        return r.status == 0 ? "0" : "\(r.status)" + (clue ? " ✓" : "")
    }
}
