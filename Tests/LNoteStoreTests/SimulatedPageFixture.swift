import Foundation
import LNoteFormat
import LNoteSimulation
import LNoteStore

/// What tests of one page on a simulated file system start from: a file system holding an
/// empty `/p` whose entry is durable, and small strokes whose ids tell them apart.
enum SimulatedPageFixture {
    /// A simulated file system with the folder `/p`, its entry synced.
    static func fileSystem() throws -> SimulatedFileSystem {
        let fs = SimulatedFileSystem()
        try fs.makeDirectory("/p")
        try fs.syncDirectory("/")
        return fs
    }

    /// A two-point stroke with id `<idPrefix>-0000-4000-8000-0000000000<n in hex>`
    /// (`idPrefix`: 8 hex digits, one per suite).
    static func stroke(_ n: UInt8, idPrefix: String) -> Stroke {
        Stroke(
            id: UUIDBytes(string: "\(idPrefix)-0000-4000-8000-0000000000\(String(format: "%02x", n))")!, ink: .pen,
            points: [
                Point(x: Int32(n), y: 2, radius: 3, pressure: 4, time: 0),
                Point(x: 9, y: 9, radius: 3, pressure: 4, time: 8)
            ])
    }
}
