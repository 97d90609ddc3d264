/// One quantized sample of a stroke (spec section 6.1). Raw size is 16 bytes; `PointCodec`
/// stores it in about 5 (E-001, E-005).
public struct Point: Equatable, Hashable, Sendable {
    /// Position in 0.1 pt.
    public var x: Int32
    /// Position in 0.1 pt (y down).
    public var y: Int32
    /// Radius in 0.1 pt.
    public var radius: UInt16
    /// Pressure in thousandths (1000 = full force).
    public var pressure: UInt16
    /// Milliseconds since the stroke's first point (E-003).
    public var time: UInt32
    /// Optional pen angles in milliradians; present iff the stroke has angles.
    public var azimuth: UInt16
    /// Pen altitude in milliradians (with `azimuth`).
    public var altitude: UInt16

    /// A point in stored units; `InputPoint(_:hasAngles:)` converts it to app units.
    @inlinable
    package init(
        x: Int32, y: Int32, radius: UInt16, pressure: UInt16, time: UInt32,
        azimuth: UInt16 = 0, altitude: UInt16 = 0
    ) {
        self.x = x; self.y = y; self.radius = radius; self.pressure = pressure; self.time = time
        self.azimuth = azimuth; self.altitude = altitude
    }

    /// Bytes of the raw fixed-width layout (x i32, y i32, radius u16, pressure u16, time u32).
    public static let rawBytes = 16
}
