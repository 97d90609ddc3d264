import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteTestSupport
import Testing

@testable import LNoteStore

/// manifest.json is read by `ManifestFastRead` (falling back to Foundation's decoder) on every
/// library listing. The fast reader must accept what a writer writes, and whatever it reads
/// must be what Foundation's decoder reads: the same manifest, or unusable (D-031) for both.
@Suite("manifest.json fast reader")
struct ManifestFastReadTests {
    /// `ManifestFile.decode` as it was before the fast reader: Foundation's decoder alone.
    static func foundationDecode(_ bytes: [UInt8]) -> ManifestFile? {
        guard bytes.count <= FormatLimits.manifestJSONBytesMax, JSONText.start(bytes) != nil,
            let m = try? JSONDecoder().decode(ManifestFile.self, from: Data(JSONText.readable(bytes))),
            m.format == ManifestFile.formatName, m.version == 1, UUIDBytes(string: m.id) != nil, m.pageCount >= 0
        else { return nil }
        if let cover = m.cover {
            let name = cover.hasPrefix("thumbnails/") ? String(cover.dropFirst("thumbnails/".count)) : ""
            guard name.hasSuffix(".png"), UUIDBytes(string: String(name.dropLast(4))) != nil else { return nil }
        }
        return m
    }

    /// What Foundation's decoder reads from `bytes` before D-031's checks; nil when it refuses.
    static func foundationFields(_ bytes: [UInt8]) -> ManifestFile? {
        guard JSONText.start(bytes) != nil else { return nil }
        return try? JSONDecoder().decode(ManifestFile.self, from: Data(JSONText.readable(bytes)))
    }

    @Test("D-030 D-082 what a writer writes is read on the fast path, equal to what it wrote")
    func writtenManifestsTakeTheFastPath() throws {
        for (k, title) in DocumentFileTextTests.awkwardTitles.enumerated() {
            for pages in [0, 1, 3] {
                let file = DocumentFileTextTests.document(title: title, pages: pages, seed: UInt64(k))
                let manifest = ManifestFile(document: file)
                let bytes = manifest.encoded()
                let start = try #require(JSONText.start(bytes))
                #expect(ManifestFastRead.parse(bytes, start: start) == manifest, "title \(title.debugDescription)")
                #expect(ManifestFile.decode(bytes) == manifest)
            }
        }
    }

    static let id = "6f1c2a8e-0b7d-4d7e-9a51-2c4b8e0f3a11"
    static let cover = "thumbnails/0b9e6c3d-5f2a-4c1e-8d7b-9a6e3f2c1b0a.png"

    @Test("D-031 D-081 D-082 the fast reader gives Foundation's values or leaves the manifest to it")
    func fastReaderAgreesOrDefers() {
        let head = #""format":"lnote.manifest","version":1,"id":"\#(Self.id)","modified":"m""#
        let cases: [(String, Bool)] = [
            // (text, the fast reader must read it)
            (#"{\#(head),"title":"t","pageCount":12,"cover":"\#(Self.cover)"}"#, true),
            (#"{\#(head),"title":"t","pageCount":0,"cover":null}"#, true),
            (#"{\#(head),"title":"t","pageCount":0}"#, true),
            (#"{"x":[1,-2.5e400,{"y":null}],\#(head),"title":"\u00e9\ud83d\ude00\/","pageCount":3}"#, true),
            (#"{\#(head),"\u0074itle":"t","pageCount":3}"#, true),
            (#"{\#(head),"title":"t","pageCount":12.0}"#, false),
            (#"{\#(head),"title":"t","pageCount":1.2e1}"#, false),
            (#"{\#(head),"title":"t","pageCount":-1}"#, false),
            (#"{\#(head),"title":"t","pageCount":1000000000000000000000}"#, false),
            (#"{\#(head),"title":"t","pageCount":"12"}"#, false),
            (#"{\#(head),"title":"t","pageCount":3,"cover":7}"#, false),
            (#"{\#(head),"title":"t","pageCount":3,"cover":true}"#, false),
            (#"{\#(head),"title":null,"pageCount":3}"#, false),
            (#"{\#(head),"pageCount":3}"#, false),
            (
                #"{"format":"lnote.manifest","version":1.0,"id":"\#(Self.id)","modified":"m","title":"t","pageCount":3}"#,
                false
            ),
            (#"[]"#, false),
            (#""manifest""#, false)
        ]
        for (text, fast) in cases {
            let bytes = Array(text.utf8)
            guard let start = JSONText.start(bytes) else {
                Issue.record("not JSON: \(text)")
                continue
            }
            let read = ManifestFastRead.parse(bytes, start: start)
            #expect((read != nil) == fast, "\(text)")
            if let read { #expect(read == Self.foundationFields(bytes), "\(text)") }
            #expect(ManifestFile.decode(bytes) == Self.foundationDecode(bytes), "\(text)")
        }
    }

    /// A manifest text from `rng`: the writer's keys in any order, with spacing, escapes,
    /// unknown keys, and now and then a key left out or given another kind of value.
    static func randomManifest(_ rng: inout SplitMix64) -> [UInt8] {
        func pick<T>(_ values: [T]) -> T { values[Int(rng.next() % UInt64(values.count))] }
        let space = [" ", "", "\n  ", "\t", "\r\n"]
        let numbers = ["0", "1", "12", "2000", "-1", "1.0", "1e2", "999999999999999", "9999999999999999", "0.5"]
        let strings = [
            #""lnote.manifest""#, #""\#(id)""#, #""\#(id.uppercased())""#, #""\#(cover)""#, #""t""#, #""""#,
            #""\u00e9\ud83d\ude00 \" \\ \/ \n""#, #""thumbnails\/0b9e6c3d-5f2a-4c1e-8d7b-9a6e3f2c1b0a.png""#,
            #""2026-12-07T17:21:54.123Z""#
        ]
        let others = ["null", "true", "false", "[]", "{}", #"[1,{"a":null}]"#]
        func value(_ usual: String) -> String {
            switch rng.next() % 40 {
            case 0: return pick(numbers)
            case 1: return pick(strings)
            case 2: return pick(others)
            default: return usual
            }
        }
        var members: [(String, String)] = [
            ("format", #""lnote.manifest""#), ("version", "1"), ("id", #""\#(id)""#), ("title", pick(strings)),
            ("modified", #""2026-12-07T17:21:54.123Z""#), ("pageCount", pick(numbers)),
            ("cover", rng.next() % 2 == 0 ? "null" : #""\#(cover)""#)
        ]
        .compactMap { rng.next() % 40 == 0 ? nil : ($0.0, value($0.1)) }
        for k in 0..<Int(rng.next() % 3) { members.append(("extra\(k)", pick(others + numbers + strings))) }
        members.shuffle(using: &rng)
        let body = members.map { name, value in
            let key = rng.next() % 8 == 0 && name == "title" ? #"\u0074itle"# : name
            return pick(space) + "\"\(key)\"" + pick(space) + ":" + pick(space) + value
        }
        return Array(("{" + body.joined(separator: ",") + pick(space) + "}").utf8)
    }

    /// `bytes` with one to three random edits: a byte changed, removed or inserted, or the
    /// text cut short.
    static func mutated(_ bytes: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = bytes
        for _ in 0..<(1 + Int(rng.next() % 3)) where !b.isEmpty {
            let at = Int(rng.next() % UInt64(b.count))
            let byte = [UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "}"), UInt8(ascii: ","), 0, 0xC3, 0xFF][
                Int(rng.next() % 7)]
            switch rng.next() % 4 {
            case 0: b[at] = byte
            case 1: b.remove(at: at)
            case 2: b.insert(byte, at: at)
            default: b.removeSubrange(at...)
            }
        }
        return b
    }

    @Test("D-031 D-082 on random and mutated manifests the listing reads what Foundation's decoder reads")
    func randomManifestsAgreeWithFoundation() {
        var rng = SplitMix64(seed: 0x6D61_6E69)
        let cases = TestLevel.current.pick(quick: 3_000, ci: 30_000)
        var fast = 0, usable = 0
        for k in 0..<cases {
            let text = Self.randomManifest(&rng)
            let bytes = k % 3 == 0 ? Self.mutated(text, &rng) : text
            let read = JSONText.start(bytes).flatMap { ManifestFastRead.parse(bytes, start: $0) }
            if let read {
                fast += 1
                #expect(read == Self.foundationFields(bytes), "\(String(decoding: bytes, as: UTF8.self))")
            }
            let decoded = ManifestFile.decode(bytes)
            if decoded != nil { usable += 1 }
            #expect(decoded == Self.foundationDecode(bytes), "\(String(decoding: bytes, as: UTF8.self))")
        }
        // The generator must reach both paths and both outcomes, or the test proves little.
        #expect(fast > cases / 10 && usable > cases / 20 && usable < cases, "fast \(fast), usable \(usable)")
    }
}
