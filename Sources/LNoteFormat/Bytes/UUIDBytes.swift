/// A 128-bit identifier stored in the byte order of its canonical text form (G-002).
/// The engine's own 16-byte value (package-only): decoding and the page index use it; apps see
/// Foundation's `UUID`, which `UUID(_:)` and `UUIDBytes(_:)` convert to and from with one copy.
package struct UUIDBytes: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The 16 bytes, big-endian halves; `UUID(_:)` and `UUIDBytes(_:)` convert to and from Foundation.
    package var storage: (UInt64, UInt64)

    /// All zero bytes.
    package static let zero = UUIDBytes(storage: (0, 0))

    /// Ids from their two halves.
    package init(storage: (UInt64, UInt64)) { self.storage = storage }

    /// The 16 bytes in order.
    package var bytes: [UInt8] {
        withUnsafeBytes(of: storage) { Array($0) }
    }

    /// Builds from exactly 16 bytes; returns nil otherwise.
    package init?(bytes: some Collection<UInt8>) {
        guard bytes.count == 16 else { return nil }
        var s: (UInt64, UInt64) = (0, 0)
        withUnsafeMutableBytes(of: &s) { dst in
            for (i, b) in bytes.enumerated() { dst[i] = b }
        }
        storage = s
    }

    /// Parses the canonical 36-character form (either case); nil for anything else.
    package init?(string: String) {
        let utf8 = Array(string.utf8)
        guard utf8.count == 36 else { return nil }
        var out = [UInt8]()
        out.reserveCapacity(16)
        var i = 0
        while i < 36 {
            if i == 8 || i == 13 || i == 18 || i == 23 {
                guard utf8[i] == UInt8(ascii: "-") else { return nil }
                i += 1
                continue
            }
            guard i + 1 < 36, let hi = Self.hex(utf8[i]), let lo = Self.hex(utf8[i + 1]) else { return nil }
            out.append(hi << 4 | lo)
            i += 2
        }
        self.init(bytes: out)
    }

    private static func hex(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// Lowercase canonical text, as used in file names (J-001).
    package var description: String {
        let digits = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(36)
        for (i, b) in bytes.enumerated() {
            if i == 4 || i == 6 || i == 8 || i == 10 { out.append(UInt8(ascii: "-")) }
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0F)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    package static func == (a: UUIDBytes, b: UUIDBytes) -> Bool {
        a.storage.0 == b.storage.0 && a.storage.1 == b.storage.1
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(storage.0)
        hasher.combine(storage.1)
    }

    package static func < (a: UUIDBytes, b: UUIDBytes) -> Bool {
        a.bytes.lexicographicallyPrecedes(b.bytes)
    }

    /// A random (version 4) identifier from the given generator.
    package static func random(using rng: inout some RandomNumberGenerator) -> UUIDBytes {
        var s = (rng.next() as UInt64, rng.next() as UInt64)
        withUnsafeMutableBytes(of: &s) { b in
            b[6] = (b[6] & 0x0F) | 0x40
            b[8] = (b[8] & 0x3F) | 0x80
        }
        return UUIDBytes(storage: s)
    }

    /// A new random (version 4) id.
    package static func random() -> UUIDBytes {
        var g = SystemRandomNumberGenerator()
        return random(using: &g)
    }
}
