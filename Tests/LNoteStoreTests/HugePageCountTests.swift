import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore
import LNoteTestSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A document.json that claims more pages than a document may hold gets a clear error naming
/// the file, in bounded time and memory: the size limit (D-010) caps what is parsed, and the
/// page limit (D-011) refuses the rest; nothing is allocated per claimed page.
@Suite("Huge page counts")
struct HugePageCountTests {
    static func seconds(_ body: () async throws -> Void) async rethrows -> Double {
        var t0 = timespec(), t1 = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t0)
        try await body()
        clock_gettime(CLOCK_MONOTONIC, &t1)
        return Double(t1.tv_sec - t0.tv_sec) + Double(t1.tv_nsec - t0.tv_nsec) / 1e9
    }

    @Test("D-011 a document.json listing 10,001 pages is refused as corrupt, naming the file, within seconds")
    func overLimitPageListIsRefused() async throws {
        let f = try await PackageBadInputTests.Fixture.make(); defer { f.dir.remove() }
        let ids = (0...FormatLimits.pagesPerDocumentMax).map { _ in UUIDBytes.random().description }
        try f.writeDocumentJSON(f.documentJSON(pageIDs: ids))
        let took = try await Self.seconds { try await f.expectRefused(.corrupt, mentioning: "at most") }
        #expect(took < 30, "took \(took) s")
        let error = await #expect(throws: LNoteError.self) {
            try await Document.open(path: f.package, readOnly: true, fileSystem: POSIXFileSystem.shared)
        }
        #expect(error?.file?.hasSuffix("document.json") == true)
    }

    @Test("D-010 a document.json claiming ten million pages cannot be read whole: refused before it is parsed")
    func tenMillionPagesAreRefusedBySize() async throws {
        let f = try await PackageBadInputTests.Fixture.make(); defer { f.dir.remove() }
        // Ten million entries of the smallest page entry would be over a GB; the first 130,000
        // (over 16 MiB) are enough for the size limit to refuse it unread.
        let entry =
            #"{"id":"00000000-0000-4000-8000-000000000000","width":6120,"height":7920,"created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","elementCount":0}"#
        let head =
            #"{"format":"lnote.document","version":1,"id":"\#(f.id.description)","title":"t","created":"2026-01-01T00:00:00.000Z","modified":"2026-01-01T00:00:00.000Z","pages":["#
        let text = head + Array(repeating: entry, count: 130_000).joined(separator: ",") + "]}"
        #expect(text.utf8.count > FormatLimits.documentJSONBytesMax)
        try f.writeDocumentJSON(text)
        let took = try await Self.seconds { try await f.expectRefused(.corrupt, mentioning: "limit") }
        #expect(took < 30, "took \(took) s")
    }
}
