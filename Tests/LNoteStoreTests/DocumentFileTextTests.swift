import Foundation
import LNoteFormat
import Testing
@testable import LNoteStore

/// document.json is written by `DocumentFileText` and read by `DocumentFileFastRead` (falling
/// back to Foundation's decoder): both in one pass, so a document of thousands of pages costs
/// an open or a flush microseconds a page. They must agree byte for byte and value for value
/// with Foundation's encoder and decoder, which they replace on the common path.
@Suite("document.json text")
struct DocumentFileTextTests {
    /// The wire form as Foundation encodes it (what `DocumentFile.encoded()` wrote before).
    struct FoundationWire: Codable, Equatable {
        struct Page: Codable, Equatable {
            var id: String
            var width: UInt32
            var height: UInt32
            var created: String
            var modified: String
            var elementCount: Int
        }
        var format: String
        var version: Int
        var id: String
        var title: String
        var created: String
        var modified: String
        var pages: [Page]

        init(_ f: DocumentFile) {
            format = DocumentFile.format; version = DocumentFile.version; id = f.id.description; title = f.title
            created = f.created; modified = f.modified
            pages = f.pages.map {
                Page(
                    id: $0.id.description, width: $0.metadata.width, height: $0.metadata.height, created: $0.created,
                    modified: $0.modified, elementCount: $0.elementCount)
            }
        }

        func encoded() throws -> [UInt8] {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
            return Array(try encoder.encode(self))
        }
    }

    static let awkwardTitles = [
        "", "Lecture notes", "a\"b\\c/d 12/5", "\u{0}\u{1}\u{8}\u{9}\u{A}\u{C}\u{D}\u{1F}\u{7F}",
        "é 😀 \u{2028}\u{2029}\u{FEFF} 日本語", String(repeating: "/\"", count: 200)
    ]

    static func document(title: String, pages: Int, seed: UInt64) -> DocumentFile {
        var rng = seed
        func next() -> UInt64 {
            rng = rng &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return rng >> 11
        }
        let times = ["2026-12-07T17:21:54.123Z", "", "x\"/\\\u{1}", String(repeating: "9", count: 64)]
        return DocumentFile(
            id: .random(), title: title, created: times[Int(next() % 4)], modified: times[Int(next() % 4)],
            pages: (0..<pages).map { _ in
                DocumentFile.PageEntry(
                    id: .random(),
                    metadata: PageMetadata(
                        width: [0, 6120, UInt32.max][Int(next() % 3)], height: UInt32(truncatingIfNeeded: next())),
                    created: times[Int(next() % 4)], modified: times[Int(next() % 4)],
                    elementCount: [0, 1, 1532, 999_999_999_999_999, 9_007_199_254_740_992][Int(next() % 5)])
            })
    }

    @Test("D-020 document.json is written byte for byte as Foundation's sorted, pretty-printed encoder writes it")
    func writerMatchesFoundation() throws {
        for (k, title) in Self.awkwardTitles.enumerated() {
            for pages in [0, 1, 7] {
                let file = Self.document(title: title, pages: pages, seed: UInt64(k * 10 + pages))
                let expected = try FoundationWire(file).encoded()
                #expect(file.encoded() == expected, "title \(title.debugDescription), \(pages) pages")
            }
        }
    }

    @Test("D-020 D-082 what the writer writes is read back on the fast path, equal to what it wrote")
    func writtenFilesTakeTheFastPath() throws {
        for (k, title) in Self.awkwardTitles.enumerated() {
            let file = Self.document(title: title, pages: 5, seed: UInt64(k))
            let bytes = file.encoded()
            #expect(DocumentFileFastRead.parse(bytes, start: 0) != nil, "title \(title.debugDescription)")
            #expect(try DocumentFile.decode(bytes) == file)
        }
    }

    /// What Foundation's decoder reads from `text`, as the fast reader's fields (numbers as
    /// doubles, as D-082 reads them); nil when it refuses.
    static func foundationFields(_ text: String) -> DocumentFileFastRead.Fields? {
        struct Page: Decodable {
            var id: String, width: Double, height: Double, created: String, modified: String, elementCount: Double
        }
        struct Wire: Decodable {
            var format: String, version: Int, id: String, title: String, created: String, modified: String
            var pages: [Page]
        }
        let bytes = Array(text.utf8)
        guard JSONText.start(bytes) != nil,
            let w = try? JSONDecoder().decode(Wire.self, from: Data(JSONText.readable(bytes)))
        else { return nil }
        return DocumentFileFastRead.Fields(
            format: w.format, version: w.version, id: w.id, title: w.title, created: w.created, modified: w.modified,
            pages: w.pages.map {
                DocumentFileFastRead.Page(
                    id: $0.id, width: UInt32(exactly: $0.width) ?? 0, height: UInt32(exactly: $0.height) ?? 0,
                    created: $0.created, modified: $0.modified, elementCount: Int(exactly: $0.elementCount) ?? -1)
            })
    }

    @Test("D-081 D-082 the fast reader gives Foundation's values or leaves the file to Foundation's decoder")
    func fastReaderAgreesOrDefers() throws {
        let page = #""id":"0B9E6C3D-5F2A-4C1E-8D7B-9A6E3F2C1B0A","created":"c","modified":"m""#
        let head =
            #""format":"lnote.document","version":1,"id":"6f1c2a8e-0b7d-4d7e-9a51-2c4b8e0f3a11","created":"a","modified":"b""#
        let cases: [(String, Bool)] = [
            // (text, the fast reader must read it)
            (#"{\#(head),"title":"t","pages":[{\#(page),"width":6120,"height":7920,"elementCount":3}]}"#, true),
            (#"{"pages":[],\#(head),"title":"\u00e9\ud83d\ude00\/\n\"\\"}"#, true),
            (#"{"x":{"y":[1,-2.5e400,true,null,{"z":"\u0041"}]},\#(head),"title":"t","pages":[]}"#, true),
            (#"{\#(head),"title":"t","pages":[{"extra":[[]],\#(page),"width":0,"height":0,"elementCount":0}]}"#, true),
            (#"{\#(head),"title":"t","pages":[{\#(page),"width":6120.0,"height":7920,"elementCount":3}]}"#, false),
            (#"{\#(head),"title":"t","pages":[{\#(page),"width":6.12e3,"height":7920,"elementCount":3}]}"#, false),
            (#"{\#(head),"title":"t","pages":[{\#(page),"width":4294967296,"height":1,"elementCount":3}]}"#, false),
            (
                #"{\#(head),"title":"t","pages":[{\#(page),"width":1,"height":1,"elementCount":9007199254740993}]}"#,
                false
            ),
            (
                #"{\#(head),"title":"t","pages":[{\#(page),"width":1,"height":1,"elementCount":9007199254740992}]}"#,
                true
            ),
            (#"{\#(head),"title":"t","pages":[{\#(page),"width":-1,"height":1,"elementCount":3}]}"#, false),
            (#"{\#(head),"title":"t","pages":[{\#(page),"height":1,"elementCount":3}]}"#, false),
            (#"{\#(head),"title":7,"pages":[]}"#, false),
            (#"{\#(head),"pages":[]}"#, false),
            (#"{\#(head),"title":"t","pages":{}}"#, false),
            ("[]", false)
        ]
        for (text, fast) in cases {
            let bytes = Array(text.utf8)
            guard let start = JSONText.start(bytes) else {
                #expect(!fast, "\(text)")
                continue
            }
            let fields = DocumentFileFastRead.parse(bytes, start: start)
            #expect((fields != nil) == fast, "\(text)")
            if let fields { #expect(fields == Self.foundationFields(text), "\(text)") }
        }
        // A byte-order mark before the value is skipped by both.
        let marked = "\u{FEFF}" + #"{\#(head),"title":"t","pages":[]}"#
        let bytes = Array(marked.utf8)
        let start = try #require(JSONText.start(bytes))
        let fields = try #require(DocumentFileFastRead.parse(bytes, start: start))
        #expect(fields == Self.foundationFields(marked))
    }
}
