/// A deterministic random number generator: xoshiro256** seeded through SplitMix64.
///
/// The same seed gives the same sequence on every platform and run, so every simulated
/// failure replays from its seed. Cost: a few arithmetic instructions per `next()`. Not for
/// cryptography.
package struct SeededGenerator: RandomNumberGenerator, Sendable {
    private var s0: UInt64
    private var s1: UInt64
    private var s2: UInt64
    private var s3: UInt64

    /// A generator whose whole future output is fixed by `seed`.
    package init(seed: UInt64) {
        var mix = seed
        s0 = Self.splitMix(&mix)
        s1 = Self.splitMix(&mix)
        s2 = Self.splitMix(&mix)
        s3 = Self.splitMix(&mix)
    }

    /// The next 64 random bits (xoshiro256**).
    package mutating func next() -> UInt64 {
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
    package static func derive(_ seed: UInt64, _ values: UInt64...) -> UInt64 {
        var mix = seed
        var result = splitMix(&mix)
        for value in values {
            mix = result ^ value
            result = splitMix(&mix)
        }
        return result
    }

    /// One step of SplitMix64 (Steele, Lea, Flood 2014), the seeding xoshiro's authors
    /// recommend; the same sequence as LNoteHandwriting's `SplitMix64`, kept here so the
    /// simulation does not depend on the handwriting module.
    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
