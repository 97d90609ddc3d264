import Foundation
import LNoteFormat
@testable import LNoteStore
import Testing

/// P-043 for the package's JSON files: the largest document.json and manifest.json a writer
/// can make are read back, and a file one entry past the page limit is refused.
@Suite struct DocumentLimitsTests {
    /// A title of `titleBytesMax` bytes whose characters JSON escapes (each takes 6 bytes as `\\u00XX`).
    static let largestTitle = String(repeating: "\u{1}", count: DocumentFile.titleBytesMax)

    static func document(pages: Int) -> DocumentFile {
        let stamp = "2026-12-07T14:00:00.000Z"
        let entries = (0..<pages).map { i in
            DocumentFile.PageEntry(
                id: UUIDBytes(storage: (UInt64(i), 0xFFFF_FFFF_FFFF_FFFF)),
                metadata: PageMetadata(width: UInt32.max, height: UInt32.max),
                created: stamp, modified: stamp, elementCount: Int(Int32.max))
        }
        return DocumentFile(
            id: UUIDBytes(storage: (1, 2)), title: largestTitle, created: stamp, modified: stamp, pages: entries)
    }

    @Test(
        "P-043 D-010 D-011 the largest document.json and manifest.json a writer makes (pagesPerDocumentMax pages, a titleBytesMax title) are below their read limits and read back"
    )
    func largestFilesReadBack() throws {
        let largest = Self.document(pages: FormatLimits.pagesPerDocumentMax)
        let bytes = largest.encoded()
        #expect(bytes.count < FormatLimits.documentJSONBytesMax)
        #expect(try DocumentFile.decode(bytes) == largest)
        let manifest = ManifestFile(document: largest).encoded()
        #expect(manifest.count < FormatLimits.manifestJSONBytesMax)
        #expect(ManifestFile.decode(manifest) != nil)
    }

    @Test("D-011 a document.json one page past pagesPerDocumentMax is refused as corrupt")
    func onePagePastIsRefused() throws {
        let bytes = Self.document(pages: FormatLimits.pagesPerDocumentMax + 1).encoded()
        #expect(throws: LNoteError.self) { try DocumentFile.decode(bytes) }
    }
}
