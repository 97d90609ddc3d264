/// The handwriting's random source: a `SplitMix64` stream from a mixed seed, with the
/// uniform, normal and integer draws the generator needs.
///
/// Helpers use only `+ - * /` on `Double`, which IEEE 754 rounds identically everywhere, so
/// derived values are reproducible bit for bit.
struct HandwritingRandom: RandomNumberGenerator, Sendable {
    private var stream: SplitMix64

    /// Starts from `seed` passed through MurmurHash3's finalizer: plain SplitMix64 gives
    /// visibly correlated early outputs for neighbouring seeds such as 1, 2, 3.
    init(seed: UInt64) {
        var k = seed ^ 0x6A09_E667_F3BC_C909
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        stream = SplitMix64(seed: k)
    }

    mutating func next() -> UInt64 { stream.next() }

    /// Uniform in [0, 1), 53 bits.
    mutating func unit() -> Double {
        Double(next() >> 11) * (1.0 / 9_007_199_254_740_992.0)
    }

    /// Uniform in [lo, hi).
    mutating func uniform(_ lo: Double, _ hi: Double) -> Double {
        lo + (hi - lo) * unit()
    }

    /// Approximately normal with mean 0 and standard deviation 1 (Irwin-Hall sum of 4, scaled).
    mutating func normal() -> Double {
        (unit() + unit() + unit() + unit() - 2.0) * 1.7320508075688772
    }

    /// Uniform integer in 0 ..< n (n > 0), by rejection-free multiply-shift.
    mutating func below(_ n: Int) -> Int {
        guard n > 1 else { return 0 }
        let m = next().multipliedFullWidth(by: UInt64(n))
        return Int(m.high)
    }

    /// True with probability p.
    mutating func chance(_ p: Double) -> Bool { unit() < p }
}
