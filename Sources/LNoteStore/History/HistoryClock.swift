import Foundation
import LNoteFormat

/// The `clock` frame (Spec/history.md H-010): a save's wall-clock time, written right before
/// its change frames in the same write.
package enum HistoryClock {
    /// Bytes of a clock frame's body after the sequence: one `i64`.
    package static let bodyBytes = 8

    /// Now, in milliseconds since 1970 UTC, as the device's clock reads it (it may jump back;
    /// H-012 says how lookups cope).
    package static func now() -> Int64 {
        Int64((Date().timeIntervalSince1970 * 1000).rounded(.down))
    }

    /// Appends one `clock` frame holding `time` at `sequence` to `w`.
    package static func encodeFrame(time: Int64, sequence: UInt64, salt: UInt64, into w: inout ByteWriter) {
        FrameCodec.append(type: FrameType.clock.rawValue, sequence: sequence, salt: salt, to: &w.bytes) {
            $0.u64(UInt64(bitPattern: time))
        }
    }

    /// The time a scanned `clock` frame holds, or nil when the frame is not one or its body is
    /// not exactly 8 bytes (no time, and no damage: the frame is ancillary).
    package static func time(of frame: ScannedFrame, in bytes: [UInt8]) -> Int64? {
        guard frame.type == FrameType.clock.rawValue, frame.bodyRange.count == bodyBytes,
            frame.bodyRange.lowerBound >= 0, frame.bodyRange.upperBound <= bytes.count
        else { return nil }
        var v: UInt64 = 0
        for (i, b) in bytes[frame.bodyRange].enumerated() { v |= UInt64(b) << (8 * UInt64(i)) }
        return Int64(bitPattern: v)
    }

    /// Milliseconds since 1970 as a `Date`.
    package static func date(_ time: Int64) -> Date { Date(timeIntervalSince1970: Double(time) / 1000) }

    /// A `Date` as milliseconds since 1970 (saturating far outside any clock's range).
    package static func time(_ date: Date) -> Int64 { Timestamp.milliseconds(date) }
}
