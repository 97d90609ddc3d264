import Foundation
import LNoteFormat
import LNoteSimulation
@testable import LNoteStore
import LNoteHandwriting
import LNoteTestSupport

/// The calling thread, as a number (to tell which thread did something).
func currentThreadID() -> UInt {
    #if canImport(Darwin)
    UInt(bitPattern: pthread_self())
    #else
    UInt(pthread_self())
    #endif
}

/// A small deterministic stroke with `n` points.
func makeStroke(_ seed: UInt64, points n: Int = 20) -> Stroke {
    var rng = SplitMix(seed)
    let id = UUIDBytes.random(using: &rng)
    var pts: [Point] = []
    var x = Int32(truncatingIfNeeded: rng.next() % 5000), y = Int32(truncatingIfNeeded: rng.next() % 7000)
    for i in 0..<n {
        x += Int32(truncatingIfNeeded: rng.next() % 7) - 3
        y += Int32(truncatingIfNeeded: rng.next() % 7) - 3
        pts.append(Point(x: x, y: y, radius: 8, pressure: UInt16(400 + i % 300), time: UInt32(i * 4)))
    }
    return Stroke(id: id, ink: .pen, points: pts)
}

/// The shared SplitMix64 under the name these tests use: `SplitMix(seed)`.
typealias SplitMix = SplitMix64

extension SplitMix64 {
    init(_ seed: UInt64) { self.init(seed: seed) }
}
