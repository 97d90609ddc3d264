#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#endif
import LNoteFormat
import LNoteHandwriting
@testable import LNoteStore
import Testing
import LNoteTestSupport

/// `readBounded` reads every byte of data once and holds exactly what P-020 says: the
/// bytes up to one largest frame past the last non-zero byte, zeros of holes included. Checked
/// against the plain reference (the whole file, cut there) on real files with holes, written
/// zero runs and chunk sizes that split them anywhere.
@Suite("Bounded read of page files (P-020)")
struct BoundedReadTests {
    let fs = POSIXFileSystem.shared
    static let margin = FormatLimits.frameHeaderBytes + FormatLimits.payloadBytesMax

    /// A file of `size` bytes holding `writes`; everything else is a hole (never written).
    private func make(_ path: String, _ writes: [(offset: Int, bytes: [UInt8])], size: Int) throws {
        let f = try fs.open(path, [.create, .truncate])
        defer { try? fs.close(f) }
        try fs.truncate(f, to: Int64(size))
        for w in writes { try w.bytes.withUnsafeBytes { try fs.write(f, at: Int64(w.offset), $0) } }
    }

    /// The reference: the whole file, cut one largest frame past its last non-zero byte.
    private func reference(_ writes: [(offset: Int, bytes: [UInt8])], size: Int) -> [UInt8] {
        var image = [UInt8](repeating: 0, count: size)
        for w in writes { image.replaceSubrange(w.offset..<(w.offset + w.bytes.count), with: w.bytes) }
        let end = (image.lastIndex { $0 != 0 } ?? -1) + 1
        return Array(image[0..<min(size, end + Self.margin)])
    }

    private func check(
        _ path: String, _ writes: [(offset: Int, bytes: [UInt8])], size: Int,
        chunks: [Int]
    ) throws {
        try make(path, writes, size: size)
        let want = reference(writes, size: size)
        for chunk in chunks {
            let got = try fs.readBounded(path, chunkBytes: chunk)
            #expect(got.fileSize == size, "chunk \(chunk)")
            #expect(got.bytes.count == want.count, "chunk \(chunk): \(got.bytes.count) bytes, want \(want.count)")
            #expect(got.bytes == want, "chunk \(chunk)")
        }
    }

    @Test("P-020 random files of data, written zero runs and holes: the bytes the reference holds, for any chunk size")
    func randomLayouts() throws {
        let dir = TemporaryFolder("bounded-read")
        defer { dir.remove() }
        var rng = SplitMix64(seed: 16)
        for round in 0..<40 {
            var writes: [(offset: Int, bytes: [UInt8])] = []
            var at = 0
            for _ in 0..<Int.random(in: 0...6, using: &rng) {
                at += Int.random(in: 0...20_000, using: &rng)  // a hole, or nothing
                let n = Int.random(in: 1...30_000, using: &rng)
                // Data, or zeros written (not a hole), or data ending in written zeros.
                let kind = Int.random(in: 0...2, using: &rng)
                let bytes = (0..<n).map { i -> UInt8 in
                    if kind == 1 || (kind == 2 && i > n / 2) { return 0 }
                    return UInt8.random(in: 0...255, using: &rng)
                }
                writes.append((at, bytes))
                at += n
            }
            let size = max(1, at + Int.random(in: 0...20_000, using: &rng))
            try check(dir.path + "/f\(round)", writes, size: size, chunks: [4093, 65_536, BoundedPrefix.chunkBytes])
        }
    }

    @Test(
        "P-020 a zero tail longer than one largest frame, as a hole or written, after a hole inside the data: held up to one largest frame past the data"
    )
    func longZeroTails() throws {
        let dir = TemporaryFolder("bounded-read")
        defer { dir.remove() }
        let data = (0..<3_000).map { UInt8(truncatingIfNeeded: $0 | 1) }
        let mib = 1 << 20
        // Sparse: data, a 3 MiB hole, data, then a hole to 40 MiB.
        try check(
            dir.path + "/sparse", [(0, data), (3 * mib + 5, data)], size: 40 * mib,
            chunks: [mib, BoundedPrefix.chunkBytes])
        // Written: data, then 20 MiB of zeros written out (no hole for SEEK_DATA to skip).
        let zeros = [UInt8](repeating: 0, count: 20 * mib)
        try check(
            dir.path + "/written", [(0, data), (data.count, zeros)], size: data.count + zeros.count,
            chunks: [mib + 3, BoundedPrefix.chunkBytes])
    }

    @Test(
        "P-020 data past the budget is refused with the file's last non-zero byte named, also when it ends in a later chunk"
    )
    func budget() throws {
        let dir = TemporaryFolder("bounded-read")
        defer { dir.remove() }
        let path = dir.path + "/f"
        try make(path, [(0, [UInt8](repeating: 7, count: 3_000)), (4_999, [9])], size: 9_000)
        #expect(throws: LNoteError.self) { try fs.readBounded(path, budget: 4_096, chunkBytes: 1_000) }
        do {
            _ = try fs.readBounded(path, budget: 4_096, chunkBytes: 1_000)
        } catch let e as LNoteError {
            #expect(
                e.code == .corrupt && e.message.contains("up to byte 5000 of 9000") && e.message.contains("in memory"),
                "\(e)")
        }
        let fits = try fs.readBounded(path, budget: 5_000, chunkBytes: 1_000)
        #expect(fits.bytes.count == 9_000 && fits.bytes[4_999] == 9 && fits.fileSize == 9_000)
    }
}
