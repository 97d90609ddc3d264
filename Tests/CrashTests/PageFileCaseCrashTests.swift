import LNoteFormat
import LNoteSimulation
import LNoteStore
import Testing

/// P-025: a writer renames the files a page read under upper-case names (P-024) before its
/// first write, then writes and compacts. Every state a power loss can leave during that keeps
/// the page's strokes: each name is one spelling or the other, both of which readers take.
@Suite("Crashes while page files get their lowercase names")
struct PageFileCaseCrashTests {
    static func stroke(_ n: Int) -> Stroke {
        let points = (0..<8).map { i in
            Point(x: Int32(100 + 10 * n + i), y: Int32(200 + i), radius: 8, pressure: 500, time: UInt32(4 * i))
        }
        return Stroke(id: UUIDBytes.random(), ink: .pen, points: points)
    }

    @Test(
        "P-024 P-025 every crash state of the renames, a save and the closing compaction keeps every stroke saved before them"
    )
    func renamesKeepStrokes() async throws {
        let page = UUIDBytes.random()
        let dir = "/pages"
        // A page with 3 strokes in its snapshot and 2 in its journal, its files then renamed to
        // upper case, all of it durable.
        let setup = SimulatedFileSystem()
        try setup.makeDirectory(dir)
        try setup.syncDirectory("/")
        let first = try await Page.open(
            directory: dir, id: page, options: PageOptions(compaction: .onCloseOnly),
            fileSystem: setup)
        var saved: [UUIDBytes] = []
        for n in 0..<5 {
            if n == 3 { try await first.compact() }
            let s = Self.stroke(n)
            try await first.append(.stroke(s), durability: .data)
            saved.append(s.key)
        }
        try await first.flush(.data)
        for name in try setup.list(dir) {
            try setup.rename(dir + "/" + name, to: dir + "/" + name.prefix(36).uppercased() + name.dropFirst(36))
        }
        try setup.syncDirectory(dir)
        let fs = setup.durableSnapshot().makeFileSystem()
        #expect(try fs.list(dir).allSatisfy { $0.prefix(36) == $0.prefix(36).uppercased() })

        // The writer: renames (P-025), one save, the compaction at close.
        let writer = try await Page.open(
            directory: dir, id: page, options: PageOptions(compaction: .onCloseOnly), fileSystem: fs)
        #expect(await writer.elements.map(\.key) == saved)
        let added = Self.stroke(9)
        try await writer.append(.stroke(added), durability: .data)
        let afterSave = try fs.list(dir)
        try await writer.close()
        #expect(afterSave.allSatisfy { $0 == $0.lowercased() }, "\(afterSave)")
        #expect(try fs.list(dir).allSatisfy { $0 == $0.lowercased() })

        var states = 0, withAdded = 0
        for state in fs.crashStates(CrashOptions(seed: 24)) {
            states += 1
            let crashed = state.makeFileSystem()
            let recovered = try PageRecovery.recover(fs: crashed, directory: dir, pageID: page, mode: .salvage)
            let ids = recovered.state.elements.map(\.key)
            #expect(ids == saved || ids == saved + [added.key], "state \(state): \(ids.count) elements")
            if ids == saved + [added.key] { withAdded += 1 }
        }
        print("page file names: \(states) crash states, \(withAdded) with the save")
        #expect(states > 50, "\(states) crash states")
        #expect(withAdded > 0)
    }
}
