import Testing
@testable import LNoteFormat

@Suite("Journal and snapshot headers (J-002, J-023, S-001)")
struct HeaderTests {
    static let pageID = UUIDBytes(string: "00112233-4455-6677-8899-aabbccddeeff") ?? .zero
    static let journal = JournalHeader(
        pageID: pageID, baseGeneration: 7, salt: 0x0102_0304_0506_0708,
        firstSequence: 42)
    static let snapshot = SnapshotHeader(
        pageID: pageID, generation: 3, salt: 0xA1A2_A3A4_A5A6_A7A8,
        nextSequence: 99, elementCount: 1234)

    static func le(_ bytes: ArraySlice<UInt8>) -> UInt64 {
        bytes.reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    /// Rewrites bytes 60..<64 so the header CRC matches again (to isolate the other checks).
    static func resealed(_ bytes: [UInt8]) -> [UInt8] {
        var b = bytes
        let crc = CRC32C.checksum(Array(b[0..<60]))
        for i in 0..<4 { b[60 + i] = UInt8(truncatingIfNeeded: crc >> (8 * UInt32(i))) }
        return b
    }

    @Test("J-002 a journal header encodes to the table's 64 bytes and decodes back")
    func journalHeaderHasDocumentedLayout() {
        let b = Self.journal.encoded()
        #expect(b.count == 64)
        #expect(Array(b[0..<8]) == Array("LNOTEJNL".utf8))
        #expect(Self.le(b[8..<10]) == 1)
        #expect(Self.le(b[10..<12]) == 64)
        #expect(Self.le(b[12..<16]) == 0)
        #expect(Array(b[16..<32]) == Self.pageID.bytes)
        #expect(Self.le(b[32..<40]) == 7)
        #expect(Self.le(b[40..<48]) == 0x0102_0304_0506_0708)
        #expect(Self.le(b[48..<56]) == 42)
        #expect(Self.le(b[56..<60]) == 0)
        #expect(Self.le(b[60..<64]) == UInt64(CRC32C.checksum(Array(b[0..<60]))))
        #expect(JournalHeader.decode(b) == .valid(Self.journal))
        // Bytes after the header (the first frame) do not matter.
        #expect(JournalHeader.decode(b + [1, 2, 3]) == .valid(Self.journal))
    }

    @Test("S-001 a snapshot header encodes to the table's 64 bytes and decodes back")
    func snapshotHeaderHasDocumentedLayout() {
        let b = Self.snapshot.encoded()
        #expect(b.count == 64)
        #expect(Array(b[0..<8]) == Array("LNOTESNP".utf8))
        #expect(Self.le(b[8..<10]) == 1)
        #expect(Self.le(b[10..<12]) == 64)
        #expect(Array(b[16..<32]) == Self.pageID.bytes)
        #expect(Self.le(b[32..<40]) == 3)
        #expect(Self.le(b[40..<48]) == 0xA1A2_A3A4_A5A6_A7A8)
        #expect(Self.le(b[48..<56]) == 99)
        #expect(Self.le(b[56..<60]) == 1234)
        #expect(Self.le(b[60..<64]) == UInt64(CRC32C.checksum(Array(b[0..<60]))))
        #expect(SnapshotHeader.decode(b) == .valid(Self.snapshot))
    }

    @Test("J-002 a journal header shorter than 64 bytes is shortHeader with no fields")
    func shortJournalHeaderHasNoFields() {
        let b = Array(Self.journal.encoded()[0..<63])
        #expect(JournalHeader.decode(b) == .damaged(nil, reason: "shortHeader"))
        #expect(JournalHeader.decode([]) == .damaged(nil, reason: "shortHeader"))
        #expect(SnapshotHeader.decode(Array(Self.snapshot.encoded()[0..<10])) == .damaged(nil, reason: "shortHeader"))
    }

    @Test("J-002 each journal header check fails with its own reason")
    func journalHeaderChecksReportTheirReasons() {
        let good = Self.journal.encoded()
        func damaged(_ edit: (inout [UInt8]) -> Void, reseal: Bool) -> HeaderDecoding<JournalHeader> {
            var b = good
            edit(&b)
            return JournalHeader.decode(reseal ? Self.resealed(b) : b)
        }
        #expect(damaged({ $0[0] = UInt8(ascii: "X") }, reseal: true).reason == "badMagic")
        #expect(damaged({ $0[8] = 2 }, reseal: true).reason == "badVersion")
        #expect(damaged({ $0[10] = 65 }, reseal: true).reason == "badHeaderSize")
        #expect(damaged({ $0[20] ^= 1 }, reseal: false).reason == "badHeaderCRC")
        #expect(damaged({ $0[63] ^= 0x80 }, reseal: false).reason == "badHeaderCRC")
        #expect(damaged({ $0[12] = 1 }, reseal: true).reason == "nonZeroReserved")
        #expect(damaged({ $0[57] = 1 }, reseal: true).reason == "nonZeroReserved")
        var zeroFirst = Self.journal
        zeroFirst.firstSequence = 0
        #expect(JournalHeader.decode(zeroFirst.encoded()) == .damaged(zeroFirst, reason: "badFirstSequence"))
    }

    @Test("S-001 each snapshot header check fails with its own reason")
    func snapshotHeaderChecksReportTheirReasons() {
        let good = Self.snapshot.encoded()
        func damaged(_ edit: (inout [UInt8]) -> Void, reseal: Bool) -> HeaderDecoding<SnapshotHeader> {
            var b = good
            edit(&b)
            return SnapshotHeader.decode(reseal ? Self.resealed(b) : b)
        }
        // A journal header is not a snapshot header.
        #expect(SnapshotHeader.decode(Self.journal.encoded()).reason == "badMagic")
        #expect(damaged({ $0[9] = 1 }, reseal: true).reason == "badVersion")
        #expect(damaged({ $0[11] = 1 }, reseal: true).reason == "badHeaderSize")
        #expect(damaged({ $0[45] ^= 4 }, reseal: false).reason == "badHeaderCRC")
        #expect(damaged({ $0[15] = 0x80 }, reseal: true).reason == "nonZeroReserved")
        var zeroGeneration = Self.snapshot
        zeroGeneration.generation = 0
        #expect(SnapshotHeader.decode(zeroGeneration.encoded()) == .damaged(zeroGeneration, reason: "badGeneration"))
        var zeroNext = Self.snapshot
        zeroNext.nextSequence = 0
        #expect(SnapshotHeader.decode(zeroNext.encoded()) == .damaged(zeroNext, reason: "badNextSequence"))
    }

    @Test("J-023 a damaged header still carries its stored salt and first sequence")
    func damagedHeaderCarriesStoredFields() throws {
        var b = Self.journal.encoded()
        b[61] ^= 0xFF  // the header CRC itself
        let decoded = JournalHeader.decode(b)
        #expect(decoded.header == nil)
        let stored = try #require(decoded.storedFields)
        #expect(stored == Self.journal)
        #expect(decoded.reason == "badHeaderCRC")
        // With the stored salt the journal's frames still validate.
        var file = b
        FrameCodec.append(type: 1, sequence: 42, body: [1], salt: stored.salt, to: &file)
        let result = FrameScanner.scan(
            file, from: 64, salt: stored.salt, firstSequence: stored.firstSequence, mode: .salvage)
        #expect(result.frames.map(\.sequence) == [42])
    }
}

extension HeaderDecoding {
    /// The damage reason, or nil when valid (test convenience).
    var reason: String? {
        if case .damaged(_, let reason) = self { return reason }
        return nil
    }
}
