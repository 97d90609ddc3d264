import Foundation

/// `x` with `digits` decimals (no locale-dependent formatting).
package func fixed(_ x: Double, _ digits: Int = 1) -> String {
    guard x.isFinite, abs(x) < 1e15 else { return x.isFinite ? "\(x)" : "-" }
    var scale = 1.0
    for _ in 0..<max(digits, 0) { scale *= 10 }
    let n = (abs(x) * scale).rounded()
    let whole = Int(n / scale)
    let frac = Int(n - Double(whole) * scale)
    var s = (x < 0 && n > 0 ? "-" : "") + String(whole)
    if digits > 0 {
        let f = String(frac)
        s += "." + String(repeating: "0", count: max(0, digits - f.count)) + f
    }
    return s
}

/// `value` with `significant` significant digits, no exponent.
package func format(_ value: Double, _ significant: Int) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = value == 0 ? 0 : Int((abs(value)).log10Floor)
    let decimals = Swift.max(0, significant - 1 - magnitude)
    return fixed(value, decimals)
}

/// A duration given in microseconds, with a unit that keeps 3 significant digits.
package func formatMicros(_ us: Double) -> String {
    if us >= 1_000_000 { return format(us / 1_000_000, 3) + " s" }
    if us >= 1000 { return format(us / 1000, 3) + " ms" }
    return format(us, 3) + " us"
}

extension Double {
    /// floor(log10(self)) for positive values, without Foundation.
    package var log10Floor: Double {
        var v = self, e = 0.0
        while v >= 10 { v /= 10; e += 1 }
        while v < 1 && v > 0 { v *= 10; e -= 1 }
        return e
    }
}

/// `s` padded with spaces to `width` characters.
package func pad(_ s: String, _ width: Int) -> String {
    s.count >= width ? s : s + String(repeating: " ", count: width - s.count)
}

/// `value` as pretty-printed JSON with sorted keys.
package func jsonString<T: Encodable>(_ value: T) throws -> String {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
    return String(decoding: try encoder.encode(value), as: UTF8.self)
}

/// "1 page", "3 pages".
package func plural(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
