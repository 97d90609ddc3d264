/// How a stroke is drawn: an open, string-backed tool name, a colour and a base width
/// (6.3, E-010, E-012).
public struct Ink: Equatable, Hashable, Sendable {
    /// Tool name, 1 to 64 UTF-8 bytes (E-010). Well-known values: `pen`, `pencil`, `marker`.
    public var type: String
    /// RGBA, 8 bits each, as stored (apps read `colorComponents`, 0...1 as they set it).
    package var red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8
    /// Base width in 0.1 pt (stored units; apps read `widthPoints`).
    package var width: UInt32

    /// An ink with 8-bit colour and its width in 0.1 pt; `init(type:red:green:blue:alpha:widthPoints:)` takes pt and 0...1.
    package init(type: String, red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255, width: UInt32) {
        self.type = type; self.red = red; self.green = green; self.blue = blue; self.alpha = alpha
        self.width = width
    }

    /// The well-known tool name spelled by `bytes`, as a literal (no allocation, no
    /// reference count), or nil for any other bytes.
    @_optimize(speed) static func wellKnownType(_ b: UnsafeBufferPointer<UInt8>) -> String? {
        func spells(_ word: StaticString) -> Bool {
            // Byte by byte on constants: the compiler unrolls it, no buffer call per stroke.
            guard word.utf8CodeUnitCount == b.count else { return false }
            let w = word.utf8Start
            for i in 0..<b.count where w[i] != b[i] { return false }
            return true
        }
        switch b.count {
        case 3: return spells("pen") ? "pen" : nil
        case 6:
            if spells("pencil") { return "pencil" }
            return spells("marker") ? "marker" : nil
        default: return nil
        }
    }

    /// A dark pen, 1.2 pt wide.
    public static let pen = Ink(type: "pen", red: 20, green: 20, blue: 30, width: 12)
}
