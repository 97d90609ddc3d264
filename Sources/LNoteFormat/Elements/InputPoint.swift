/// One pen sample as the app measures it, in floating point (PencilKit's units).
///
/// `Quantize.point` turns it into a `Point` at the precision of section 6.1, throwing on any
/// value that is not finite or does not fit.
public struct InputPoint: Sendable, Equatable {
    /// Position in points (pt); stored at 0.1 pt as `Int32`.
    public var x: Double
    /// Position in pt (y down).
    public var y: Double
    /// Radius in pt; stored at 0.1 pt, `0 ... 6553.5` pt.
    public var radius: Double
    /// Pen force, 1.0 = full; stored in thousandths, `0 ... 65.535`.
    public var force: Double
    /// Seconds since the stroke started; stored in ms, `0 ... 2^32-1` ms.
    public var timeOffset: Double
    /// Pen angles in radians; stored in milliradians, `0 ... 65.535`. Both or neither.
    public var azimuth: Double?
    /// Pen altitude in radians (with `azimuth`).
    public var altitude: Double?

    /// A sample in app units (pt, seconds, force 0...1, radians).
    @inlinable
    public init(x: Double, y: Double, radius: Double, force: Double, timeOffset: Double,
                azimuth: Double? = nil, altitude: Double? = nil) {
        self.x = x; self.y = y; self.radius = radius; self.force = force
        self.timeOffset = timeOffset; self.azimuth = azimuth; self.altitude = altitude
    }
}
