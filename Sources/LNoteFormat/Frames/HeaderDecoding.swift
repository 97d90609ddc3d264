/// The outcome of decoding a 64-byte journal or snapshot header (J-002, S-001).
///
/// `damaged` carries the fields as stored, read without the checks, whenever at least 64
/// bytes exist (nil otherwise): a salvage reader may still try the stored salt (J-023).
/// `reason` is one of `shortHeader`, `badMagic`, `badVersion`, `badHeaderSize`,
/// `badHeaderCRC`, `nonZeroReserved`, `badFirstSequence` (journal), `badGeneration`,
/// `badNextSequence` (snapshot), checked in that order.
public enum HeaderDecoding<H> {
    case valid(H)
    case damaged(H?, reason: String)

    /// The header when it is valid, else nil.
    public var header: H? {
        if case .valid(let h) = self { return h }
        return nil
    }

    /// The fields as stored, valid or not (nil when fewer than 64 bytes exist).
    public var storedFields: H? {
        switch self {
        case .valid(let h): return h
        case .damaged(let h, _): return h
        }
    }
}

extension HeaderDecoding: Sendable where H: Sendable {}
extension HeaderDecoding: Equatable where H: Equatable {}

/// The layout shared by the journal and snapshot headers: the common fields, then three
/// type-specific fields at 32, 40, 48 and 56, and the CRC at 60 (sections 4.1 and 7).
enum HeaderLayout {
    static let size = 64
    static let crcOffset = 60

    /// The fields of a 64-byte header, read without any check.
    struct Raw {
        var magic: UInt64
        var version: UInt16
        var headerSize: UInt16
        var flags: UInt32
        var pageID: UUIDBytes
        var word32: UInt64
        var salt: UInt64
        var word48: UInt64
        var word56: UInt32
        var storedCRC: UInt32
        var computedCRC: UInt32
    }

    static func magic(_ ascii: String) -> UInt64 {
        var v: UInt64 = 0
        for (i, b) in ascii.utf8.prefix(8).enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return v
    }

    /// Reads the fields, or nil when fewer than 64 bytes exist. Never traps.
    static func read(_ bytes: UnsafeRawBufferPointer) -> Raw? {
        guard bytes.count >= size else { return nil }
        var r = ByteReader(UnsafeRawBufferPointer(rebasing: bytes[0..<size]))
        do {
            let raw = Raw(
                magic: try r.u64(), version: try r.u16(), headerSize: try r.u16(),
                flags: try r.u32(), pageID: try r.uuid(), word32: try r.u64(), salt: try r.u64(),
                word48: try r.u64(), word56: try r.u32(), storedCRC: try r.u32(),
                computedCRC: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<crcOffset])))
            return raw
        } catch {
            return nil
        }
    }

    /// The first failing common check (magic, version, header size, CRC, flags), or nil.
    static func commonFailure(_ raw: Raw, magic: UInt64) -> String? {
        if raw.magic != magic { return "badMagic" }
        if raw.version != FormatLimits.formatVersion { return "badVersion" }
        if raw.headerSize != UInt16(size) { return "badHeaderSize" }
        if raw.storedCRC != raw.computedCRC { return "badHeaderCRC" }
        if raw.flags != 0 { return "nonZeroReserved" }
        return nil
    }

    /// Encodes the common fields and the type-specific ones, then the CRC over bytes 0..<60.
    static func encode(
        magic: UInt64, pageID: UUIDBytes, word32: UInt64, salt: UInt64,
        word48: UInt64, word56: UInt32
    ) -> [UInt8] {
        var w = ByteWriter(capacity: size)
        w.u64(magic)
        w.u16(FormatLimits.formatVersion)
        w.u16(UInt16(size))
        w.u32(0)
        w.uuid(pageID)
        w.u64(word32)
        w.u64(salt)
        w.u64(word48)
        w.u32(word56)
        let crc = CRC32C.checksum(w.bytes)
        w.u32(crc)
        return w.bytes
    }
}
