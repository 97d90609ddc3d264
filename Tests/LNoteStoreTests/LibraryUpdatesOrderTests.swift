import Foundation
import LNoteFormat
import LNoteSimulation
import Synchronization
import Testing
@testable import LNoteStore
import LNoteTestSupport

/// `NoteLibrary.updates()` re-lists from the manifests (D-030), so a change is announced only
/// once its manifest is written: a listing made between document.json and manifest.json would
/// show the old title, and nothing would announce the manifest after it.
@Suite("Library updates order")
struct LibraryUpdatesOrderTests {
    /// The real file system with every rename onto a `manifest.json` slowed down: the window
    /// between a change's document.json and its manifest is wide open.
    struct SlowManifests: ForwardingFileSystem {
        let base = POSIXFileSystem.shared
        func rename(_ from: String, to: String) throws {
            if to.hasSuffix("/" + PackageLayout.manifestFileName) { Thread.sleep(forTimeInterval: 0.3) }
            try base.rename(from, to: to)
        }
    }

    /// The listings `updates()` delivered, in order, as their titles.
    final class Seen: Sendable { let listings = Mutex<[[String]]>([]) }

    /// Waits until `seen` holds a listing of exactly `titles`; false once `seconds` of wall
    /// time have passed. The bound is generous: the failure this suite guards against is a
    /// listing that never comes, and under a parallel test run the I/O thread is shared.
    static func waitFor(_ titles: [String], in seen: Seen, within seconds: Double) async -> Bool {
        let deadline = ContinuousClock.now + .milliseconds(Int(seconds * 1000))
        while ContinuousClock.now < deadline {
            if seen.listings.withLock({ $0.contains(titles) }) { return true }
            try? await Task.sleep(for: .milliseconds(10))
        }
        return seen.listings.withLock { $0.contains(titles) }
    }

    @Test("D-030 a title change reaches updates() with the new title while the document stays open")
    func titleChangeIsListedWithItsManifest() async throws {
        let dir = TemporaryFolder("lib-updates"); defer { dir.remove() }
        let library = NoteLibrary(folder: dir.path + "/Notes", fileSystem: SlowManifests())
        let document = try await library.createDocument(title: "One")
        let seen = Seen()
        let stream = library.updates()
        let reader = Task { for await listing in stream { seen.listings.withLock { $0.append(listing.map(\.title)) } } }
        defer { reader.cancel() }
        #expect(await Self.waitFor(["One"], in: seen, within: 120))
        try await document.setTitle("Two")
        #expect(
            await Self.waitFor(["Two"], in: seen, within: 60),
            "no listing showed the new title while the document stayed open: \(seen.listings.withLock { $0 })")
        try await document.close()
    }
}
