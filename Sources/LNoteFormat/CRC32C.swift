import CLNoteFormat

/// CRC-32C (Castagnoli), the checksum of every frame and header (Spec/format.md section 2).
///
/// `extend` uses the CPU's CRC instruction when there is one (SSE4.2 on x86-64, the CRC
/// extension on arm64; tens of GB/s) and slicing-by-8 in Swift otherwise (about 2 GB/s).
/// Both give identical results; values are the plain, unmasked CRC (C-003). Never traps.
public enum CRC32C {
    /// Whether `extend` runs on the CPU's CRC instruction. Decided once per process.
    public static let isHardwareAccelerated: Bool = lnote_crc32c_hw_available() != 0

    /// The CRC-32C of `bytes` (C-001). The empty input gives 0 (C-002).
    @inlinable
    public static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        extend(0, bytes)
    }

    /// The CRC-32C of `bytes` (C-001).
    public static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { extend(0, $0) }
    }

    /// Continues a checksum: given `crc == checksum(a)`, returns `checksum(a ++ bytes)`.
    @inlinable
    @_optimize(speed) public static func extend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32 {
        if isHardwareAccelerated {
            return lnote_crc32c_hw_extend(crc, bytes.baseAddress, bytes.count)
        }
        return portableExtend(crc, bytes)
    }

    /// Copies `source` to `destination` (at least as long, not overlapping) and returns
    /// `extend(crc, source)`: on the CPU's CRC instruction one pass loads each word once
    /// (checksumming bytes as they are copied instead of reading them again after).
    @_optimize(speed) public static func copyExtend(
        _ crc: UInt32, _ source: UnsafeRawBufferPointer,
        to destination: UnsafeMutableRawBufferPointer
    ) -> UInt32 {
        precondition(destination.count >= source.count, "copy destination shorter than its source")
        guard let from = source.baseAddress, let to = destination.baseAddress else { return crc }
        if isHardwareAccelerated {
            return lnote_crc32c_hw_copy_extend(crc, to, from, source.count)
        }
        to.copyMemory(from: from, byteCount: source.count)
        return portableExtend(crc, source)
    }

    /// `extend` on the CPU's CRC instruction, or nil when this CPU has none (test hook).
    package static func hardwareExtend(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard isHardwareAccelerated else { return nil }
        return lnote_crc32c_hw_extend(crc, bytes.baseAddress, bytes.count)
    }

    /// `copyExtend` on the CPU's CRC instruction with the streams of fixed sizes only (a test
    /// hook: on x86-64 with PCLMULQDQ `copyExtend` fits the streams to the buffer instead), or
    /// nil without the instruction. `destination` must be at least as long as `source`.
    package static func hardwareCopyExtendFixedStreams(
        _ crc: UInt32, _ source: UnsafeRawBufferPointer,
        to destination: UnsafeMutableRawBufferPointer
    ) -> UInt32? {
        guard isHardwareAccelerated else { return nil }
        precondition(destination.count >= source.count, "copy destination shorter than its source")
        guard let from = source.baseAddress, let to = destination.baseAddress else { return crc }
        return lnote_crc32c_hw_copy_extend_tiers(crc, to, from, source.count)
    }

    /// `hardwareExtend` on the streams of `crc32` only, also where the CPU folds long buffers
    /// with VPCLMULQDQ (`hardwareFolds`; a test hook), or nil without the instruction.
    package static func hardwareExtendStreams(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard isHardwareAccelerated else { return nil }
        return lnote_crc32c_hw_extend_streams(crc, bytes.baseAddress, bytes.count)
    }

    /// The width of the registers `extend` folds buffers of 256 bytes or more in with
    /// VPCLMULQDQ on this CPU: 512 bits with AVX-512 F and VL, 256 with AVX2, 0 where it does
    /// not fold.
    package static let hardwareFoldBits: Int = isHardwareAccelerated ? Int(lnote_crc32c_hw_folds()) : 0

    /// `extend`, or `copyExtend` when `destination` is given, on the 256-bit fold also where the
    /// CPU folds 512 bits (a test hook; the streams of `crc32` where it folds neither), or nil
    /// without the instruction. `destination` must be at least as long as `source`.
    package static func hardwareFold256(
        _ crc: UInt32, _ source: UnsafeRawBufferPointer,
        to destination: UnsafeMutableRawBufferPointer? = nil
    ) -> UInt32? {
        guard isHardwareAccelerated else { return nil }
        precondition((destination?.count ?? source.count) >= source.count, "copy destination shorter than its source")
        return lnote_crc32c_hw_fold256(crc, destination?.baseAddress, source.baseAddress, source.count)
    }

    /// `hardwareExtend` with the streams of fixed sizes only (a test hook: on x86-64 with
    /// PCLMULQDQ `extend` fits the streams to the buffer instead), or nil without the instruction.
    package static func hardwareExtendFixedStreams(_ crc: UInt32, _ bytes: UnsafeRawBufferPointer) -> UInt32? {
        guard isHardwareAccelerated else { return nil }
        return lnote_crc32c_hw_extend_tiers(crc, bytes.baseAddress, bytes.count)
    }
}
