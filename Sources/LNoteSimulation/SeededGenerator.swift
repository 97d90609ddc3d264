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
        var state = seed
        s0 = Self.splitMix(&state)
        s1 = Self.splitMix(&state)
        s2 = Self.splitMix(&state)
        s3 = Self.splitMix(&state)
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
        var state = seed
        var result = splitMix(&state)
        for value in values {
            state = result ^ value
            result = splitMix(&state)
        }
        return result
    }

    /// SplitMix64: advances `state` and returns a well-mixed 64-bit value.
    private static func splitMix(_ state: inout UInt64) -> UInt64 {
        state = state &+ 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    private static func rotateLeft(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }
}
