import LNoteFormat

/// The points of a stroke as the database stores them (Spec/sqlite.md, Q-030 ... Q-033):
/// `points` holds 16 bytes a point, `angles` 4 bytes a point or nothing.
///
/// Cost: O(points), one allocation per BLOB. Decoding never traps: a BLOB whose length is not
/// a whole number of points gives nil.
public enum PointBlob {
    /// Bytes per point in the `points` BLOB.
    public static let pointBytes = 16
    /// Bytes per point in the `angles` BLOB.
    public static let angleBytes = 4

    /// x i32, y i32, radius u16, pressure u16, time u32, little-endian, point after point.
    public static func encode(_ points: [Point]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: points.count * pointBytes)
        out.withUnsafeMutableBytes { raw in
            for (i, p) in points.enumerated() {
                let o = i * pointBytes
                raw.storeBytes(of: UInt32(bitPattern: p.x).littleEndian, toByteOffset: o, as: UInt32.self)
                raw.storeBytes(of: UInt32(bitPattern: p.y).littleEndian, toByteOffset: o + 4, as: UInt32.self)
                raw.storeBytes(of: p.radius.littleEndian, toByteOffset: o + 8, as: UInt16.self)
                raw.storeBytes(of: p.pressure.littleEndian, toByteOffset: o + 10, as: UInt16.self)
                raw.storeBytes(of: p.time.littleEndian, toByteOffset: o + 12, as: UInt32.self)
            }
        }
        return out
    }

    /// azimuth u16, altitude u16, little-endian, point after point.
    public static func encodeAngles(_ points: [Point]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: points.count * angleBytes)
        out.withUnsafeMutableBytes { raw in
            for (i, p) in points.enumerated() {
                raw.storeBytes(of: p.azimuth.littleEndian, toByteOffset: i * angleBytes, as: UInt16.self)
                raw.storeBytes(of: p.altitude.littleEndian, toByteOffset: i * angleBytes + 2, as: UInt16.self)
            }
        }
        return out
    }

    /// The points of a `points` BLOB and an optional `angles` BLOB; nil when a length is not
    /// `count` points. Range rules (E-002, E-003) are the validator's job.
    public static func decode(points blob: [UInt8], angles: [UInt8]?, count: Int) -> [Point]? {
        guard count >= 0, blob.count == count * pointBytes else { return nil }
        if let angles, angles.count != count * angleBytes { return nil }
        var out: [Point] = []
        out.reserveCapacity(count)
        blob.withUnsafeBytes { raw in
            for i in 0..<count {
                let o = i * pointBytes
                out.append(
                    Point(
                        x: Int32(
                            bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt32.self))),
                        y: Int32(
                            bitPattern: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o + 4, as: UInt32.self))),
                        radius: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 8, as: UInt16.self)),
                        pressure: UInt16(littleEndian: raw.loadUnaligned(fromByteOffset: o + 10, as: UInt16.self)),
                        time: UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: o + 12, as: UInt32.self))))
            }
        }
        if let angles {
            angles.withUnsafeBytes { raw in
                for i in 0..<count {
                    out[i].azimuth = UInt16(
                        littleEndian: raw.loadUnaligned(fromByteOffset: i * angleBytes, as: UInt16.self))
                    out[i].altitude = UInt16(
                        littleEndian: raw.loadUnaligned(fromByteOffset: i * angleBytes + 2, as: UInt16.self))
                }
            }
        }
        return out
    }

    /// The digest of a stroke's points the verification reports: CRC-32C of the
    /// `points` BLOB followed by the `angles` BLOB, if any.
    public static func digest(points: [UInt8], angles: [UInt8]?) -> UInt32 {
        var crc = CRC32C.checksum(points)
        if let angles { crc = angles.withUnsafeBytes { CRC32C.extend(crc, $0) } }
        return crc
    }
}
