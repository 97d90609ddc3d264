import LNoteHandwriting

/// A deterministic random number generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every platform and run, so every simulated
/// failure replays from its seed. Cost: a few arithmetic instructions per `next()`. Not for
/// cryptography.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole future output is fixed by `seed`.
    public init(seed: UInt64) {
        var mix = SplitMix64(seed: seed)
        s0 = mix.next()
        s1 = mix.next()
        s2 = mix.next()
        s3 = mix.next()
    }

    /// The next 64 random bits (xoshiro256**).
    public mutating func next() -> UInt64 {
        let result = Self.rotateLeft(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0
        s3 ^= s1
        s1 ^= s2
        s0 ^= s3
        s2 ^= t
        s3 = Self.rotateLeft(s3, 45)
        return result
    }

    /// A seed derived from `seed` and `values` (for example a point and an operation index),
    /// so independent streams never overlap by accident.
    public static func derive(_ seed: UInt64, _ values: UInt64...) -> UInt64 {
        var mix = SplitMix64(seed: seed)
        var result = mix.next()
        for value in values {
            mix = SplitMix64(seed: result ^ value)
            result = mix.next()
        }
        return result
    }

    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
