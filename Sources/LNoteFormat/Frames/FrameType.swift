/// Frame types (Spec/format.md section 3.1). Types 1...127 are critical (F-010),
/// 128...255 ancillary (F-011); 0 is never valid (F-004).
public enum FrameType: UInt8, Sendable, CaseIterable {
    case elementAppend = 0x01
    case elementReplace = 0x02
    case elementsTransform = 0x03
    case elementsDelete = 0x04
    case elementsReorder = 0x05
    case pageMetadata = 0x06
    case padding = 0x80
    /// Ancillary: the wall-clock time of the save whose changes follow (Spec/history.md H-010).
    case clock = 0x81

    /// An unknown critical type stops replay (F-010); an unknown ancillary type is skipped (F-011).
    public static func isCritical(_ raw: UInt8) -> Bool { raw >= 1 && raw <= 127 }
}
