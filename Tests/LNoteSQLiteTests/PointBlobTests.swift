import LNoteFormat
@testable import LNoteSQLite
import Testing

@Suite("Point BLOB layout")
struct PointBlobTests {
    @Test("Q-030 a point is 16 bytes: x i32, y i32, radius u16, pressure u16, time u32, little-endian")
    func layoutIsExact() {
        let p = Point(x: -2, y: 0x0102_0304, radius: 0x0A0B, pressure: 1000, time: 0xDEAD_BEEF, azimuth: 7, altitude: 9)
        let blob = PointBlob.encode([Point(x: 0, y: 0, radius: 0, pressure: 0, time: 0), p])
        #expect(blob.count == 32)
        #expect(
            Array(blob[16...]) == [
                0xFE, 0xFF, 0xFF, 0xFF, 0x04, 0x03, 0x02, 0x01, 0x0B, 0x0A, 0xE8, 0x03,
                0xEF, 0xBE, 0xAD, 0xDE
            ])
        #expect(blob[..<16].allSatisfy { $0 == 0 })
    }

    @Test("Q-031 angles are a second BLOB, 4 bytes a point: azimuth u16, altitude u16; nothing is lost")
    func anglesColumn() throws {
        let points = [
            Point(x: 1, y: 2, radius: 3, pressure: 4, time: 0, azimuth: 0x0102, altitude: 0xFFFF),
            Point(x: .min, y: .max, radius: .max, pressure: .max, time: .max, azimuth: 0, altitude: 6283)
        ]
        let angles = PointBlob.encodeAngles(points)
        #expect(angles == [0x02, 0x01, 0xFF, 0xFF, 0x00, 0x00, 0x8B, 0x18])
        let back = try #require(PointBlob.decode(points: PointBlob.encode(points), angles: angles, count: 2))
        #expect(back == points)
        // Without the angles column the 16-byte points come back with zero angles.
        let plain = try #require(PointBlob.decode(points: PointBlob.encode(points), angles: nil, count: 2))
        #expect(plain.map(\.x) == points.map(\.x) && plain.allSatisfy { $0.azimuth == 0 && $0.altitude == 0 })
    }

    @Test("Q-032 a BLOB that is not exactly pointCount points long is refused, never read past")
    func wrongLengthsAreRefused() {
        let blob = PointBlob.encode([Point(x: 1, y: 1, radius: 1, pressure: 1, time: 0)])
        #expect(PointBlob.decode(points: blob, angles: nil, count: 2) == nil)
        #expect(PointBlob.decode(points: Array(blob.dropLast()), angles: nil, count: 1) == nil)
        #expect(PointBlob.decode(points: blob, angles: [1, 2, 3], count: 1) == nil)
        #expect(PointBlob.decode(points: blob, angles: nil, count: -1) == nil)
        #expect(PointBlob.decode(points: blob, angles: nil, count: 1) != nil)
    }

    @Test("Q-052 a stroke's digest is CRC-32C of the points BLOB followed by the angles BLOB")
    func digestDefinition() {
        let points = [Point(x: 5, y: 6, radius: 7, pressure: 8, time: 0, azimuth: 1, altitude: 2)]
        let p = PointBlob.encode(points), a = PointBlob.encodeAngles(points)
        #expect(PointBlob.digest(points: p, angles: nil) == CRC32C.checksum(p))
        #expect(PointBlob.digest(points: p, angles: a) == CRC32C.checksum(p + a))
        #expect(PointBlob.digest(points: p, angles: a) != PointBlob.digest(points: p, angles: nil))
    }
}
