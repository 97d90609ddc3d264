import LNoteFormat
import LNoteStore

/// The bodies of the libFuzzer targets in `Tools/fuzz/`, callable from ordinary tests so that
/// every saved crashing input replays under `swift test` (Tests/LNoteFormatTests/FuzzRegressionTests).
///
/// Each harness takes arbitrary bytes, runs one reader on them, and returns nil when every
/// invariant held, or a one-line description of the first one that did not. A trap inside a
/// reader is itself the finding: libFuzzer reports it with the input. The invariants: no trap,
/// bounded memory (the fuzzer's `-rss_limit_mb`), and whatever decodes re-encodes byte for
/// byte (E-031, F-003). Inputs are read in a structure-aware way where a checksum would stop
/// the fuzzer at the door: a flag byte asks the harness to fix the CRCs before reading.
package enum FuzzHarness {
    /// The targets, by the name `Tools/fuzz/run.sh` and the regression folders use.
    package static let targets = [
        "frame-reader", "snapshot-decoder", "point-codec", "deferred-points", "document-json",
        "package-open"
    ]

    /// Runs the synchronous target `name` on `data` (`package-open` runs through `packageOpen`).
    package static func run(_ name: String, _ data: [UInt8]) -> String? {
        switch name {
        case "frame-reader": return frameReader(data)
        case "snapshot-decoder": return snapshotDecoder(data)
        case "point-codec": return pointCodec(data)
        case "deferred-points": return deferredPoints(data)
        case "document-json": return documentJSON(data)
        case "package-open": return packageOpenSync(data)
        default: return "unknown fuzz target \(name)"
        }
    }

    /// Small valid inputs to start each target's corpus from.
    package static func seeds(_ name: String) -> [[UInt8]] {
        switch name {
        case "frame-reader": return FuzzSeeds.journals()
        case "snapshot-decoder": return FuzzSeeds.snapshots()
        case "point-codec": return FuzzSeeds.pointRuns()
        case "deferred-points": return deferredSeeds()
        case "document-json": return FuzzSeeds.documents()
        case "package-open": return FuzzSeeds.mutationScripts()
        default: return []
        }
    }
}

/// Little helpers shared by the harnesses.
enum FuzzBytes {
    static func u32(_ bytes: [UInt8], _ offset: Int) -> UInt32? {
        guard offset >= 0, offset <= bytes.count - 4 else { return nil }
        var v: UInt32 = 0
        for i in 0..<4 { v |= UInt32(bytes[offset + i]) << (8 * UInt32(i)) }
        return v
    }

    static func u64(_ bytes: [UInt8], _ offset: Int) -> UInt64? {
        guard offset >= 0, offset <= bytes.count - 8 else { return nil }
        var v: UInt64 = 0
        for i in 0..<8 { v |= UInt64(bytes[offset + i]) << (8 * UInt64(i)) }
        return v
    }

    static func put32(_ value: UInt32, into bytes: inout [UInt8], at offset: Int) {
        guard offset >= 0, offset <= bytes.count - 4 else { return }
        for i in 0..<4 { bytes[offset + i] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(i))) }
    }

    /// Rewrites the header CRC (bytes 60..<64) and every frame CRC from offset 64 on, walking the
    /// stored lengths, with the header's salt: makes the fuzzer's bytes pass the checksums so that
    /// it explores what lies behind them.
    static func fixChecksums(_ bytes: inout [UInt8]) {
        guard bytes.count >= 64, let salt = u64(bytes, 40) else { return }
        put32(CRC32C.checksum(Array(bytes[0..<60])), into: &bytes, at: 60)
        var offset = 64
        while let length = u32(bytes, offset), bytes.count - offset - 9 >= Int(length), length >= 8 {
            let type = bytes[offset + 8]
            let end = offset + 9 + Int(length)
            let crc = bytes.withUnsafeBytes { raw in
                FrameCodec.frameCRC(
                    salt: salt, length: length, type: type,
                    payload: UnsafeRawBufferPointer(rebasing: raw[(offset + 9)..<end]))
            }
            put32(crc, into: &bytes, at: offset + 4)
            offset = end
        }
    }

    /// Whether the frames from offset 64 on, walked by their stored lengths as
    /// `fixChecksums` walks them, include a `padding` frame (F-011 table): skipped without a
    /// finding, so a clean file holding one has bytes no encoder writes back.
    static func hasPadding(_ bytes: [UInt8]) -> Bool {
        var offset = 64
        while let length = u32(bytes, offset), bytes.count - offset - 9 >= Int(length), length >= 8 {
            if bytes[offset + 8] == FrameType.padding.rawValue { return true }
            offset += 9 + Int(length)
        }
        return false
    }

    /// A change body must re-encode to itself (E-031); returns a finding when it does not.
    static func checkCanonical(type: UInt8, body: UnsafeRawBufferPointer) -> String? {
        guard let change = try? PageChangeCodec.decode(type: type, body: body, baseOffset: 0) else { return nil }
        let (reType, reBody) = PageChangeCodec.encode(change)
        if reType.rawValue != type { return "change of type \(type) re-encodes as type \(reType.rawValue)" }
        if reBody != Array(body) {
            return "change of type \(type) (\(body.count) bytes) re-encodes to \(reBody.count) different bytes"
        }
        return nil
    }
}
