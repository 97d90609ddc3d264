/// Summary statistics of a latency sample: count, mean and the percentiles the bench reports.
///
/// Percentiles are nearest-rank on the sorted sample (p99 of 200 samples is the 198th value),
/// so every reported figure is a value that was actually measured. Cost: one sort.
package struct LatencyStats: Codable, Sendable {
    package var count: Int
    /// Microseconds.
    package var p50: Double
    package var p90: Double
    package var p99: Double
    package var max: Double
    package var mean: Double

    /// Stats of `nanoseconds`, reported in microseconds; all zero for an empty sample.
    package init(nanoseconds: [UInt64]) {
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
