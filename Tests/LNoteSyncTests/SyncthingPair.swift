import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Two Syncthing instances on this machine, each syncing its own copy of one folder: homes
/// and configs generated here, GUI/REST on 127.0.0.1 only, global and local discovery, relays
/// and NAT traversal off, devices introduced by id at loopback addresses. Processes are
/// started and stopped by their pids.
final class SyncthingPair {
    static var binary: String? {
        for p in ["/usr/bin/syncthing", "/usr/local/bin/syncthing", "/opt/homebrew/bin/syncthing"]
        where FileManager.default.isExecutableFile(atPath: p) { return p }
        return nil
    }
    static var curl: String? { FileManager.default.isExecutableFile(atPath: "/usr/bin/curl") ? "/usr/bin/curl" : nil }
    static var available: Bool { binary != nil && curl != nil }

    struct Node {
        let home: String, folder: String, id: String, apiKey: String, guiPort: Int, listenPort: Int
        var process: Process?
    }
    let root: String
    var nodes: [Node] = []
    static let folderID = "lnote-library"

    init(root: String) { self.root = root }

    /// Generates both homes and writes their configs; `folders` are the two library folders.
    func setUp(folders: [String], ignore: String) throws {
        var made: [(home: String, folder: String, id: String)] = []
        for (i, folder) in folders.enumerated() {
            let home = root + "/home\(i)"
            let out = try Self.runCapture(
                Self.binary ?? "", ["generate", "--home=\(home)", "--no-default-folder", "--skip-port-probing"])
            guard let line = out.split(separator: "\n").first(where: { $0.contains("Device ID:") }) else {
                throw SyncthingError("no device id in: \(out)")
            }
            let id = line.components(separatedBy: "Device ID:")[1].trimmingCharacters(in: .whitespaces)
            try ignore.write(toFile: folder + "/.stignore", atomically: true, encoding: .utf8)
            made.append((home, folder, id))
        }
        let ports = try (0..<4).map { _ in try Self.freePort() }
        for (i, m) in made.enumerated() {
            let key = "lnote-test-key-\(i)-\(UInt32.random(in: 0...UInt32.max))"
            nodes.append(
                Node(
                    home: m.home, folder: m.folder, id: m.id, apiKey: key, guiPort: ports[2 * i],
                    listenPort: ports[2 * i + 1], process: nil))
        }
        for i in nodes.indices {
            try config(for: i).write(toFile: nodes[i].home + "/config.xml", atomically: true, encoding: .utf8)
        }
    }

    func config(for i: Int) -> String {
        let me = nodes[i]
        let devices = nodes.map { n in
            "<device id=\"\(n.id)\" name=\"dev\(n.id.prefix(4))\" compression=\"metadata\" introducer=\"false\">"
                + "<address>tcp://127.0.0.1:\(n.listenPort)</address><autoAcceptFolders>false</autoAcceptFolders></device>"
        }.joined(separator: "\n")
        let folderDevices = nodes.map { "<device id=\"\($0.id)\"></device>" }.joined()
        return """
            <configuration version="36">
              <folder id="\(Self.folderID)" label="library" path="\(me.folder)" type="sendreceive" rescanIntervalS="2" fsWatcherEnabled="false" ignorePerms="false" autoNormalize="true">
                <filesystemType>basic</filesystemType>\(folderDevices)
                <minDiskFree unit="%">0</minDiskFree><maxConflicts>-1</maxConflicts><paused>false</paused>
              </folder>
              \(devices)
              <gui enabled="true" tls="false"><address>127.0.0.1:\(me.guiPort)</address><apikey>\(me.apiKey)</apikey></gui>
              <options>
                <listenAddress>tcp://127.0.0.1:\(me.listenPort)</listenAddress>
                <globalAnnounceEnabled>false</globalAnnounceEnabled><localAnnounceEnabled>false</localAnnounceEnabled>
                <relaysEnabled>false</relaysEnabled><natEnabled>false</natEnabled><startBrowser>false</startBrowser>
                <urAccepted>-1</urAccepted><autoUpgradeIntervalH>0</autoUpgradeIntervalH><crashReportingEnabled>false</crashReportingEnabled>
                <reconnectionIntervalS>1</reconnectionIntervalS><progressUpdateIntervalS>1</progressUpdateIntervalS>
                <announceLANAddresses>false</announceLANAddresses><setLowPriority>false</setLowPriority>
              </options>
            </configuration>
            """
    }

    func start() throws {
        for i in nodes.indices {
            let p = Process()
            p.executableURL = URL(fileURLWithPath: Self.binary ?? "")
            p.arguments = [
                "serve", "--home=\(nodes[i].home)", "--no-browser", "--no-restart", "--no-upgrade",
                "--logfile=\(nodes[i].home)/log.txt"
            ]
            var env = ProcessInfo.processInfo.environment
            env["STNOUPGRADE"] = "1"; env["STNORESTART"] = "1"; env["STGUIADDRESS"] = "127.0.0.1:\(nodes[i].guiPort)"
            p.environment = env
            p.standardOutput = FileHandle.nullDevice; p.standardError = FileHandle.nullDevice
            try p.run()
            nodes[i].process = p
        }
    }

    /// Stops both instances by their pids (SIGTERM, then SIGKILL after 5 s).
    func stop() {
        for n in nodes {
            guard let p = n.process, p.isRunning else { continue }
            kill(p.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while p.isRunning && Date() < deadline { usleep(50_000) }
            if p.isRunning { kill(p.processIdentifier, SIGKILL); p.waitUntilExit() }
        }
    }

    /// `curl` against node `i`'s REST API on 127.0.0.1.
    @discardableResult
    func rest(_ i: Int, _ method: String, _ path: String, body: String? = nil) throws -> String {
        var args = [
            "-s", "-m", "5", "-X", method, "-H", "X-API-Key: \(nodes[i].apiKey)",
            "http://127.0.0.1:\(nodes[i].guiPort)\(path)"
        ]
        if let body { args += ["-H", "Content-Type: application/json", "-d", body] }
        return try Self.runCapture(Self.curl ?? "", args)
    }

    func json(_ i: Int, _ path: String) -> [String: Any]? {
        guard let text = try? rest(i, "GET", path), let data = text.data(using: .utf8) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }

    func setPaused(_ i: Int, _ paused: Bool) throws {
        try rest(i, "PATCH", "/rest/config/folders/\(Self.folderID)", body: "{\"paused\": \(paused)}")
    }

    func rescan(_ i: Int) { _ = try? rest(i, "POST", "/rest/db/scan?folder=\(Self.folderID)") }

    /// True when both are connected to each other.
    func connected() -> Bool {
        nodes.indices.allSatisfy { i in
            let other = nodes[1 - i].id
            let c = json(i, "/rest/system/connections")?["connections"] as? [String: Any]
            return (c?[other] as? [String: Any])?["connected"] as? Bool == true
        }
    }

    /// True when both folders are idle with nothing to fetch and each sees the other complete.
    func idle() -> Bool {
        nodes.indices.allSatisfy { i in
            guard let s = json(i, "/rest/db/status?folder=\(Self.folderID)"),
                s["state"] as? String == "idle", (s["needTotalItems"] as? Int) == 0,
                let c = json(i, "/rest/db/completion?folder=\(Self.folderID)&device=\(nodes[1 - i].id)")
            else { return false }
            return (c["completion"] as? Double ?? (c["completion"] as? Int).map(Double.init) ?? 0) >= 100
        }
    }

    static func runCapture(_ exe: String, _ args: [String]) throws -> String {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: exe)
        p.arguments = args
        let out = Pipe()
        p.standardOutput = out; p.standardError = out
        try p.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        p.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    /// A free TCP port on 127.0.0.1 (bound, read back, released).
    static func freePort() throws -> Int {
        #if canImport(Glibc)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SyncthingError("socket failed") }
        defer { close(fd) }
        var addr = sockaddr_in()
        addr.sin_family = sa_family_t(AF_INET)
        addr.sin_addr.s_addr = inet_addr("127.0.0.1")
        addr.sin_port = 0
        var len = socklen_t(MemoryLayout<sockaddr_in>.size)
        let ok = withUnsafeMutablePointer(to: &addr) { ptr in
            ptr.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, len) == 0 && getsockname(fd, $0, &len) == 0
            }
        }
        guard ok else { throw SyncthingError("bind failed") }
        return Int(UInt16(bigEndian: addr.sin_port))
    }
}

struct SyncthingError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}
