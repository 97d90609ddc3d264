import LNoteFormat
import LNoteHandwriting
import LNoteStore
import LNoteToolSupport

/// Realistic strokes for the suites, from `HandwritingGenerator`, handed out with fresh ids so
/// that any number of saves can reuse a bounded pool (generating costs microseconds per point).
struct StrokePool {
    let strokes: [Stroke]
    /// The element bytes of each pooled stroke: what every design stores per stroke.
    let bodies: [[UInt8]]
    private var idCounter: UInt64 = 0
    private let tag: UInt64

    init(seed: UInt64, count: Int) {
        var generator = HandwritingGenerator(seed: seed)
        strokes = generator.page(strokes: max(1, count))
        bodies = strokes.map(StrokePool.body)
        tag = 0xB00C_0000_0000_0000 | seed
    }

    init(strokes: [Stroke], seed: UInt64) {
        self.strokes = strokes
        bodies = strokes.map(StrokePool.body)
        tag = 0xB00C_0000_0000_0000 | seed
    }

    /// The element encoding of `stroke` (ElementCodec), the bytes an app would store per stroke.
    static func body(_ stroke: Stroke) -> [UInt8] {
        var w = ByteWriter(capacity: 4096)
        ElementCodec.encode(.stroke(stroke), into: &w)
        return w.bytes
    }

    /// `count` strokes starting at pool index `first` (cycling), with ids never handed out
    /// before, so one page can save the same pooled strokes again.
    mutating func fresh(first: Int, count: Int) -> [Stroke] {
        var out: [Stroke] = []
        out.reserveCapacity(count)
        for i in 0..<count {
            var s = strokes[(first + i) % strokes.count]
            idCounter += 1
            s.key = UUIDBytes(storage: (tag, idCounter))
            out.append(s)
        }
        return out
    }

    /// Element bytes of the strokes `take` returned starting at pool index `first`.
    func payloadBytes(first: Int, count: Int) -> Int {
        (0..<count).reduce(0) { $0 + bodies[(first + $1) % bodies.count].count }
    }

    var averagePoints: Double { Double(strokes.reduce(0) { $0 + $1.points.count }) / Double(strokes.count) }
    var averageBodyBytes: Double { Double(bodies.reduce(0) { $0 + $1.count }) / Double(bodies.count) }

    /// Writes the pooled bodies as repeated `[u32 LE length][bytes]` for the SQLite peer.
    func writeBlobFile(_ path: String) throws {
        var out: [UInt8] = []
        for b in bodies {
            withUnsafeBytes(of: UInt32(b.count).littleEndian) { out.append(contentsOf: $0) }
            out += b
        }
        try POSIXFileSystem.shared.writeFileAtomically(path, out, durability: .none)
    }
}

/// Builds page files directly (snapshot plus journal) for suites that measure an existing page.
enum BenchPages {
    /// Writes page `id` in `directory`: a snapshot holding `strokes` minus the last
    /// `journalFrames`, and a journal holding those last ones. Returns the total file bytes.
    @discardableResult
    static func write(directory: String, id: UUIDBytes, strokes: [Stroke], journalFrames: Int) throws -> Int {
        let fs = POSIXFileSystem.shared
        try makeDirectories(directory)
        let tail = min(max(0, journalFrames), strokes.count)
        let head = strokes.count - tail
        var total = 0
        var nextSequence: UInt64 = 1
        if head > 0 {
            let state = PageState(metadata: .letter, elements: strokes[..<head].map { .stroke($0) })
            nextSequence = UInt64(head) + 1
            let bytes = SnapshotFile.encode(pageID: id, generation: 1, nextSequence: nextSequence, state: state)
            try fs.writeFileAtomically(joinPath(directory, PageFileNames.snapshot(id)), bytes, durability: .data)
            total += bytes.count
        }
        if tail > 0 {
            let journal = try JournalWriter.create(
                fs: fs, directory: directory, pageID: id, base: head > 0 ? 1 : 0,
                firstSequence: nextSequence, durability: .data)
            var i = head
            while i < strokes.count {
                let end = min(strokes.count, i + 256)
                _ = try journal.write(strokes[i..<end].map { .append(.stroke($0)) })
                i = end
            }
            try journal.sync(through: journal.byteCount, .data)
            total += Int(journal.byteCount)
            journal.close()
        }
        return total
    }

    /// Every file of the page `id` in `directory`, with its size.
    static func files(directory: String, id: UUIDBytes) throws -> [(path: String, size: Int)] {
        let fs = POSIXFileSystem.shared
        return try fs.list(directory).compactMap { name in
            switch PageFileNames.parse(name) {
            case .snapshot(let p)? where p == id, .journal(let p, _)? where p == id:
                let path = joinPath(directory, name)
                if case .file(let size)? = try fs.kind(path) { return (path, Int(size)) }
                return nil
            default: return nil
            }
        }
    }

    /// mkdir -p.
    static func makeDirectories(_ path: String) throws {
        if path == "/" || path.isEmpty { return }
        if case .directory? = try? POSIXFileSystem.shared.kind(path) { return }
        try makeDirectories(parentDirectory(of: path))
        try POSIXFileSystem.shared.makeDirectory(path)
    }

    /// A fresh page id for suite-local pages (deterministic, distinct per `n`).
    static func id(_ n: UInt64) -> UUIDBytes { UUIDBytes(storage: (0x1A0E_BE7C_0000_0000, n)) }
}
