import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A generated package inside a `parent/` folder that also holds `outside/`, the place hostile
/// links and hard links point at; plus what is needed to prove that a command read or wrote
/// nothing outside the package and destroyed no byte inside it.
struct HostileFixture {
    let root: String  // temporary root of everything
    let parent: String  // root/parent: the package and outside/
    let package: String  // parent/<uuid>.lnote (may become a link)
    let outside: String  // parent/outside
    let scratch: String  // root/scratch: render output, ack logs (not under parent)
    let pageIDs: [String]

    /// A fresh copy of `template` (a generated package) in a new parent folder.
    static func make(from template: String) throws -> HostileFixture {
        let root = Tool.folder()
        let parent = root + "/parent"
        let outside = parent + "/outside"
        let scratch = root + "/scratch"
        for d in [parent, outside, scratch] {
            try FileManager.default.createDirectory(atPath: d, withIntermediateDirectories: true)
        }
        let package = parent + "/" + (template as NSString).lastPathComponent
        try FileManager.default.copyItem(atPath: template, toPath: package)
        try "outside canary\n".write(toFile: outside + "/canary.txt", atomically: false, encoding: .utf8)
        let doc = try Tool.json(String(contentsOfFile: package + "/document.json", encoding: .utf8))
        let pages = (doc["pages"] as? [[String: Any]] ?? []).compactMap { $0["id"] as? String }
        return HostileFixture(
            root: root, parent: parent, package: package, outside: outside, scratch: scratch, pageIDs: pages)
    }

    func remove() { try? FileManager.default.removeItem(atPath: root) }

    func path(_ relative: String) -> String { package + "/" + relative }

    /// The names in pages/ of page 0: its snapshot and journals.
    func pageFiles(_ index: Int = 0) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: package + "/pages")) ?? [])
            .filter { $0.hasPrefix(pageIDs[index]) && !$0.hasSuffix(".tmp") }.sorted()
    }

    /// Page `index`'s current journal (the highest base: the one a writer appends to).
    func journal(_ index: Int = 0) -> String? {
        pageFiles(index).filter { $0.hasSuffix(".journal") }
            .max {
                (Int($0.split(separator: ".").dropLast().last ?? "") ?? 0)
                    < (Int($1.split(separator: ".").dropLast().last ?? "") ?? 0)
            }
    }

    // MARK: Making hostile objects

    /// Replaces `relative` (file or folder) by `make(path)`; returns the old bytes' copy path
    /// in outside/ when `keepCopy` (links then point at it).
    func replace(_ relative: String, with make: (String) throws -> Void) throws {
        let p = path(relative)
        try? FileManager.default.removeItem(atPath: p)
        try make(p)
    }

    /// Moves `relative` to outside/<name> and puts a symbolic link to it in its place.
    func linkOutside(_ relative: String) throws {
        let target = outside + "/" + relative.replacingOccurrences(of: "/", with: "_")
        if FileManager.default.fileExists(atPath: path(relative)) {
            try FileManager.default.moveItem(atPath: path(relative), toPath: target)
        } else {
            try "link target\n".write(toFile: target, atomically: false, encoding: .utf8)
        }
        try FileManager.default.createSymbolicLink(atPath: path(relative), withDestinationPath: target)
    }

    static func makeFIFO(_ path: String) throws {
        guard mkfifo(path, 0o644) == 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
    }

    /// A character device like /dev/zero (endless zeros) at `path`: needs CAP_MKNOD (root in
    /// most containers); false when it cannot be made.
    static func makeZeroDevice(_ path: String) -> Bool {
        #if os(Linux)
        return mknod(path, S_IFCHR | 0o644, dev_t((1 << 8) | 5)) == 0
        #else
        return false
        #endif
    }

    /// A listening Unix-domain socket bound at `path`; returns its descriptor (close it after).
    static func makeSocket(_ path: String) throws -> Int32 {
        // sun_path holds about 100 bytes: bind at a short name, then rename into place.
        let short = "/tmp/lns-\(UInt32.random(in: 0...UInt32.max))"
        let fd = try bindSocket(short)
        guard rename(short, path) == 0 else { close(fd); unlink(short); throw POSIXError(.EXDEV) }
        return fd
    }

    private static func bindSocket(_ path: String) throws -> Int32 {
        #if canImport(Glibc)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_UNIX, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw POSIXError(.EIO) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd); throw POSIXError(.ENAMETOOLONG)
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            raw[bytes.count] = 0
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard bound == 0 else { close(fd); throw POSIXError(.EADDRINUSE) }
        listen(fd, 1)
        return fd
    }

    // MARK: Proof

    /// Every object under `folder`, not following links: path -> a description of the object
    /// (regular file: size and bytes hash; link: target; FIFO/socket/other: its kind).
    static func tree(_ folder: String, skipping skip: String? = nil) -> [String: String] {
        var out: [String: String] = [:]
        func walk(_ path: String) {
            if let skip, path == skip { return }
            var info = stat()
            guard lstat(path, &info) == 0 else { return }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                out[path] = "dir"
                for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? [] {
                    walk(path + "/" + name)
                }
            case S_IFREG:
                out[path] = "file " + describe(path, size: Int(info.st_size))
            case S_IFLNK:
                out[path] = "link " + ((try? FileManager.default.destinationOfSymbolicLink(atPath: path)) ?? "?")
            default:
                out[path] = "other \(info.st_mode & S_IFMT)"
            }
        }
        walk(folder)
        return out
    }

    /// Files above this size (the sparse giant rows) are described, not read whole.
    static let wholeReadBytesMax = 64 << 20

    /// A regular file as size and hash; a large one by its size and its first 1 MiB.
    static func describe(_ path: String, size: Int) -> String {
        guard size > wholeReadBytesMax else {
            let data = FileManager.default.contents(atPath: path) ?? Data()
            return "\(data.count) \(fnv(data))"
        }
        let handle = FileHandle(forReadingAtPath: path)
        defer { try? handle?.close() }
        let head = (try? handle?.read(upToCount: 1 << 20)) ?? Data()
        return "\(size) large \(fnv(head))"
    }

    /// The regular files' contents under `folder` (links not followed); a file above
    /// `wholeReadBytesMax` is its description instead.
    static func contents(_ folder: String) -> [String: Data] {
        var out: [String: Data] = [:]
        for (path, kind) in tree(folder) where kind.hasPrefix("file") {
            if kind.contains(" large ") { out[path] = Data(kind.utf8); continue }
            out[path] = FileManager.default.contents(atPath: path) ?? Data()
        }
        return out
    }

    static func fnv(_ data: Data) -> UInt64 {
        var h: UInt64 = 0xcbf29ce484222325
        for b in data { h = (h ^ UInt64(b)) &* 0x100000001b3 }
        return h
    }
}

extension Tool {
    /// Runs `lnote args...`, killing it after `seconds`; `hung` tells whether it had to be killed.
    static func run(_ args: [String], timeout seconds: Double) throws -> (result: Result, hung: Bool, trapped: Bool) {
        let running = try start(args)
        let deadline = Date().addingTimeInterval(seconds)
        while running.process.isRunning && Date() < deadline { usleep(5_000) }
        let hung = running.process.isRunning
        if hung {
            kill(running.process.processIdentifier, SIGKILL)
            running.process.waitUntilExit()
        }
        let trapped = !hung && running.process.terminationReason == .uncaughtSignal
        return (running.finish(), hung, trapped)
    }
}
