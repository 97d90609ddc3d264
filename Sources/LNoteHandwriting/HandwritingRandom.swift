/// SplitMix64: a small seeded generator whose output is identical on every platform.
///
/// Cost: a few integer operations per draw. Not cryptographic. Helpers use only `+ - * /`
/// on `Double`, which IEEE 754 rounds identically everywhere, so derived values are
/// reproducible bit for bit.
struct HandwritingRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// Starts from `seed` passed through MurmurHash3's finalizer: plain SplitMix64 gives
    /// visibly correlated early outputs for neighbouring seeds such as 1, 2, 3.
    init(seed: UInt64) {
        var k = seed ^ 0x6A09_E667_F3BC_C909
        k ^= k >> 33
        k &*= 0xFF51_AFD7_ED55_8CCD
        k ^= k >> 33
        k &*= 0xC4CE_B9FE_1A85_EC53
        k ^= k >> 33
        state = k
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

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
