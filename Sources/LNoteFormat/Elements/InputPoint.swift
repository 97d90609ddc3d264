/// One pen sample as the app measures it, in floating point (PencilKit's units).
///
/// `Stroke(ink:samples:)` turns samples into stored `Point`s at the precision of section 6.1,
/// throwing on any value that is not finite or does not fit.
public struct InputPoint: Sendable, Equatable {
    /// Position in points (pt); stored at 0.1 pt as `Int32`.
    public var x: Double
    /// Position in pt (y down).
    public var y: Double
    /// Radius in pt; stored at 0.1 pt, `0 ... 6553.5` pt.
    public var radius: Double
    /// Pen force, 1.0 = the pen's full force (UIKit's `force / maximumPossibleForce`); stored in
    /// thousandths, so values from 0 up to 65.535 are kept (a pressed pen may pass 1.0).
    public var force: Double
    /// Seconds since the stroke started; stored in ms, `0 ... 2^32-1` ms.
    public var timeOffset: Double
    /// Pen azimuth in radians; stored in milliradians, `0 ... 65.535`. A negative azimuth
    /// (UIKit gives `-pi ... pi`) is stored as the same direction plus a whole turn (E-005).
    /// Both angles or neither.
    public var azimuth: Double?
    /// Pen altitude in radians (with `azimuth`).
    public var altitude: Double?

    /// A sample in app units (pt, seconds, force with 1.0 the pen's full force, radians).
    @inlinable
    public init(
        x: Double, y: Double, radius: Double, force: Double, timeOffset: Double,
        azimuth: Double? = nil, altitude: Double? = nil
    ) {
        self.x = x; self.y = y; self.radius = radius; self.force = force
        self.timeOffset = timeOffset; self.azimuth = azimuth; self.altitude = altitude
    }
}
