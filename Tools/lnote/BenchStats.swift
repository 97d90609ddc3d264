/// Summary statistics of a latency sample: count, mean and the percentiles the bench reports.
///
/// Percentiles are nearest-rank on the sorted sample (p99 of 200 samples is the 198th value),
/// so every reported figure is a value that was actually measured. Cost: one sort.
struct LatencyStats: Codable, Sendable {
    var count: Int
    /// Microseconds.
    var p50: Double
    var p90: Double
    var p99: Double
    var max: Double
    var mean: Double

    /// Stats of `nanoseconds`, reported in microseconds; all zero for an empty sample.
    init(nanoseconds: [UInt64]) {
        let sorted = nanoseconds.sorted()
        count = sorted.count
        func rank(_ q: Double) -> Double {
            guard !sorted.isEmpty else { return 0 }
            let i = Swift.min(sorted.count - 1, Swift.max(0, Int((q * Double(sorted.count)).rounded(.up)) - 1))
            return Double(sorted[i]) / 1000
        }
        p50 = rank(0.50); p90 = rank(0.90); p99 = rank(0.99)
        max = Double(sorted.last ?? 0) / 1000
        mean = sorted.isEmpty ? 0 : Double(sorted.reduce(0, +)) / Double(sorted.count) / 1000
    }
}

/// Renders a duration given in microseconds with a unit that keeps 3 significant digits.
func formatMicros(_ us: Double) -> String {
    if us >= 1_000_000 { return format(us / 1_000_000, 3) + " s" }
    if us >= 1000 { return format(us / 1000, 3) + " ms" }
    return format(us, 3) + " us"
}

/// `value` with `significant` significant digits, no exponent.
func format(_ value: Double, _ significant: Int) -> String {
    guard value.isFinite else { return "-" }
    let magnitude = value == 0 ? 0 : Int((abs(value)).log10Floor)
    let decimals = Swift.max(0, significant - 1 - magnitude)
    return fixed(value, decimals)
}

extension Double {
    /// floor(log10(self)) for positive values, without Foundation.
    var log10Floor: Double {
        var v = self, e = 0.0
        while v >= 10 { v /= 10; e += 1 }
        while v < 1 && v > 0 { v *= 10; e -= 1 }
        return e
    }
}
