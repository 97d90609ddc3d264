import LNoteFormat

/// Reads one journal file: header (J-002, J-023) and frames (J-010 .. J-022).
package struct JournalFileReader {
    package struct Result: Sendable {
        package internal(set) var name: String
        package internal(set) var base: UInt64
        /// The header to use: valid, or (salvage mode) the damaged one's fields (J-023).
        package internal(set) var header: JournalHeader?
        package internal(set) var headerDamage: String?
        /// The file is a torn creation (J-028): header invalid, not a sealed header of another
        /// version, and no non-zero byte after the first 64. It holds no frame and is
        /// information, not damage.
        package internal(set) var isTornCreation = false
        /// The file's bytes up to one largest frame past its last non-zero byte (P-020); every
        /// byte from here to `fileSize` is zero. Frame offsets index into it.
        package internal(set) var bytes: [UInt8]
        /// The file's size on disk.
        package internal(set) var fileSize: Int = 0
        package internal(set) var scan: ScanResult?
    }

    /// Reads and scans `directory/name`. A missing or unreadable header yields `header == nil`
    /// unless salvage mode can use the damaged header's salt.
    package static func read(
        fs: any FileSystem, directory: String, name: String, base: UInt64,
        mode: ReplayMode
    ) throws -> Result {
        let read = try io { try fs.readBounded(joinPath(directory, name)) }
        let bytes = read.bytes
        var result = Result(
            name: name, base: base, header: nil, headerDamage: nil, bytes: bytes, fileSize: read.fileSize,
            scan: nil)
        let decoded = bytes.withUnsafeBytes { JournalHeader.decode($0) }
        switch decoded {
        case .valid(let h):
            result.header = h
        case .damaged(let h, let reason):
            result.headerDamage = reason
            // J-028: a file cut off before its header was synced holds nothing; never salvaged.
            // The bytes held are all that may be non-zero (P-020), so zeros past them count.
            if TornCreation.holdsNoFrame(bytes), !HeaderSeal.isUnsupportedVersion(bytes, reason: reason) {
                result.isTornCreation = true
                return result
            }
            // J-023 salvages a damaged header; J-025: never a sealed header of another version.
            if mode == .salvage, let h, h.firstSequence >= 1,
                !HeaderSeal.isUnsupportedVersion(bytes, reason: reason)
            {
                result.header = h
            }
        }
        if let h = result.header, bytes.count >= FormatLimits.journalHeaderBytes {
            result.scan = bytes.withUnsafeBytes {
                FrameScanner.scan(
                    $0, from: FormatLimits.journalHeaderBytes, salt: h.salt,
                    firstSequence: h.firstSequence, mode: mode, fileSize: read.fileSize)
            }
        }
        return result
    }
}

/// Tells a header of another format version from a damaged one (J-025).
package enum HeaderSeal {
    /// True when `reason` is `badVersion` and the stored header CRC matches bytes 0..<60: the
    /// header is intact and belongs to a version this reader does not know, so its frames
    /// must not be read with version-1 rules, even in salvage mode.
    package static func isUnsupportedVersion(_ bytes: [UInt8], reason: String) -> Bool {
        guard reason == "badVersion", bytes.count >= 64 else { return false }
        let stored = UInt32(bytes[60]) | UInt32(bytes[61]) << 8 | UInt32(bytes[62]) << 16 | UInt32(bytes[63]) << 24
        return stored == CRC32C.checksum(Array(bytes[0..<60]))
    }
}
