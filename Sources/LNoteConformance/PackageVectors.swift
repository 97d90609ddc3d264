import LNoteFormat
import LNoteStore

/// The package vectors (Spec/format.md section 10): small `.lnote` folders, checked by fsck
/// without repair. `document.json` and `manifest.json` are written here in one fixed layout
/// (not by the engine's encoder) so the bytes never depend on the platform's JSON printer.
enum PackageVectors {
    typealias F = Expect

    static let documentID = VectorFixtures.uuid("d0c00000-0000-4000-8000-000000000001")
    static let page = VectorFixtures.page
    static let otherPage = VectorFixtures.otherPage
    static let asset = VectorFixtures.uuid("a55e7000-0000-4000-8000-000000000002")
    static let time = "2026-01-02T03:04:05.678Z"
    static let title = "Conformance"

    static func documentJSON(pages: [(UUIDBytes, Int)], elementCount: Int? = nil) -> [UInt8] {
        let list: [JSONValue] = pages.map { p in
            .object([
                ("id", .string(p.0.description)), ("width", 6120), ("height", 7920), ("created", .string(time)),
                ("modified", .string(time)), ("elementCount", JSONValue(elementCount ?? p.1))
            ])
        }
        let doc: JSONValue = .object([
            ("format", "lnote.document"), ("version", 1), ("id", .string(documentID.description)),
            ("title", .string(title)), ("created", .string(time)), ("modified", .string(time)),
            ("pages", .array(list))
        ])
        return Array((doc.compact + "\n").utf8)
    }

    static func manifestJSON(pageCount: Int, cover: UUIDBytes?) -> [UInt8] {
        let m: JSONValue = .object([
            ("format", "lnote.manifest"), ("version", 1), ("id", .string(documentID.description)),
            ("title", .string(title)), ("modified", .string(time)), ("pageCount", JSONValue(pageCount)),
            ("cover", cover.map { .string("thumbnails/\($0).png") } ?? .null)
        ])
        return Array((m.compact + "\n").utf8)
    }

    static func expect(exit: Int, pages: [(UUIDBytes, [Int])], kinds: [String]) -> [(String, JSONValue)] {
        [
            ("fsckExit", JSONValue(exit)),
            ("pages", .array(pages.map { .object([("id", .string($0.0.description)), ("elements", F.ids($0.1))]) })),
            ("findingKinds", F.kinds(kinds))
        ]
    }

    /// A package with `page` holding strokes 1 ... 3 (and an image when `image` is set).
    static func package(
        _ s: inout ConformanceSuite, _ name: String, manifest: Bool = true, image: Bool = false,
        assetFile: Bool = true, unlisted: Bool = false, elementCount: Int? = nil,
        duplicatePage: Bool = false, lock: Bool = false
    ) {
        var j = FileBuilder.journal()
        _ = j.appends([1, 2, 3], from: 1)
        if image { j.change(.append(VectorFixtures.image(4, asset: asset)), sequence: 4) }
        let listed = [(page, image ? 4 : 3)] + (duplicatePage ? [(page, 3)] : [])
        s.add(name + "/document.json", documentJSON(pages: listed, elementCount: elementCount))
        if lock { s.add(name + "/.lock", []) }
        if manifest { s.add(name + "/manifest.json", manifestJSON(pageCount: 1, cover: page)) }
        s.add(name + "/pages/" + PageFileNames.journal(page, base: 0), j.bytes)
        if image && assetFile {
            s.add(name + "/assets/\(asset).png", [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
        }
        if unlisted {
            var other = FileBuilder.journal(page: otherPage, salt: VectorFixtures.otherSalt)
            _ = other.appends([7], from: 1)
            s.add(name + "/pages/" + PageFileNames.journal(otherPage, base: 0), other.bytes)
        }
    }

    static func add(to s: inout ConformanceSuite) {
        package(&s, "ok-package-one-page.lnote")
        s.entry(
            "ok-package-one-page.lnote", "package", nil, rules: ["D-001", "D-020", "D-030", "D-050", "P-001"],
            expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        package(&s, "ok-package-with-asset.lnote", image: true)
        s.entry(
            "ok-package-with-asset.lnote", "package", nil, rules: ["D-040", "E-012"],
            expect: expect(exit: 0, pages: [(page, [1, 2, 3, 4])], kinds: []))
        package(&s, "bad-package-missing-manifest.lnote", manifest: false)
        s.entry(
            "bad-package-missing-manifest.lnote", "package", nil, rules: ["D-031", "K-002", "K-028"],
            expect: expect(exit: 4, pages: [(page, [1, 2, 3])], kinds: ["staleManifest"]))
        package(&s, "bad-package-unlisted-page.lnote", unlisted: true)
        s.entry(
            "bad-package-unlisted-page.lnote", "package", nil, rules: ["D-022", "D-060"],
            expect: expect(exit: 4, pages: [(page, [1, 2, 3])], kinds: ["unlistedPage"]))
        package(&s, "ok-package-stale-element-count.lnote", elementCount: 17)
        s.entry(
            "ok-package-stale-element-count.lnote", "package", nil, rules: ["D-021"],
            expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        do {  // Spec/trash.md T-003: a reader of pages/ never reads trash/; fsck reports nothing there.
            let name = "ok-package-with-trashed-page.lnote"
            Self.package(&s, name)
            var trashed = FileBuilder.journal(page: otherPage, salt: VectorFixtures.otherSalt)
            _ = trashed.appends([7, 8], from: 1)
            let entry = name + "/trash/\(otherPage)/"
            s.add(entry + "pages/" + PageFileNames.journal(otherPage, base: 0), trashed.bytes)
            let record =
                "{\"deletedAt\":\"2026-12-07T17:30:02.481Z\",\"format\":\"lnote.trashed\",\"id\":\"\(otherPage)\","
                + "\"index\":1,\"kind\":\"page\",\"page\":{\"created\":\"2026-11-29T23:03:18.123Z\","
                + "\"elementCount\":2,\"height\":7920,\"id\":\"\(otherPage)\","
                + "\"modified\":\"2026-11-29T23:03:18.123Z\",\"width\":6120},\"version\":1}"
            s.add(entry + "trashed.json", Array(record.utf8))
            s.entry(
                name, "package", nil, rules: ["D-022", "K-019"],
                expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        }
        package(&s, "ok-package-stale-lock.lnote", lock: true)
        s.entry(
            "ok-package-stale-lock.lnote", "package", nil, rules: ["D-070"],
            expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        package(&s, "bad-package-duplicate-page.lnote", duplicatePage: true)
        s.entry(
            "bad-package-duplicate-page.lnote", "package", nil, rules: ["D-011", "D-020"],
            expect: expect(exit: 4, pages: [], kinds: ["documentInvalid"]))
        do {  // D-081: an integer may be written with a zero fraction (G15).
            let name = "ok-package-integral-float-width.lnote"
            Self.package(&s, name)
            let text = String(decoding: documentJSON(pages: [(page, 3)]), as: UTF8.self)
            let edited = text.replacing("\"width\":6120", with: "\"width\":6120.0")
            precondition(edited != text, "document.json layout changed")
            s.replace(name + "/document.json", with: Array(edited.utf8))
            s.entry(
                name, "package", nil, rules: ["D-081"], expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        }
        do {  // K-090: an unlisted page is reported once, not with its frame damage.
            let name = "bad-package-unlisted-damaged-page.lnote"
            Self.package(&s, name, unlisted: true)
            let path = name + "/pages/" + PageFileNames.journal(otherPage, base: 0)
            var other = FileBuilder.journal(page: otherPage, salt: VectorFixtures.otherSalt)
            let refs = other.appends([7, 8, 9], from: 1)
            other.flip(refs[1].end - 1, 0x01)
            s.replace(path, with: other.bytes)
            s.entry(
                name, "package", nil, rules: ["K-090", "K-013"],
                expect: expect(exit: 4, pages: [(page, [1, 2, 3])], kinds: ["unlistedPage"]))
        }
        manifestVariants(&s)
        do {  // D-081 (G14): a page id listed in upper case names its lower-case files.
            let name = "ok-package-upper-case-page-id.lnote"
            Self.package(&s, name)
            let text = String(decoding: documentJSON(pages: [(page, 3)]), as: UTF8.self)
            let edited = text.replacing("\"id\":\"\(page)\"", with: "\"id\":\"\(page.description.uppercased())\"")
            precondition(edited != text, "document.json layout changed")
            s.replace(name + "/document.json", with: Array(edited.utf8))
            s.entry(
                name, "package", nil, rules: ["D-081", "D-024"],
                expect: expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
        }
        do {  // P-001, D-022: no pages/ (sync tools keep no empty folders): every page is empty.
            let name = "ok-package-no-pages-folder.lnote"
            s.add(name + "/document.json", documentJSON(pages: [(page, 3)]))
            s.add(name + "/manifest.json", manifestJSON(pageCount: 1, cover: page))
            s.entry(
                name, "package", nil, rules: ["P-001", "D-022", "D-021"],
                expect: expect(exit: 0, pages: [(page, [])], kinds: []))
        }
        package(&s, "bad-package-missing-asset.lnote", image: true, assetFile: false)
        s.entry(
            "bad-package-missing-asset.lnote", "package", nil, rules: ["D-040"],
            expect: expect(exit: 4, pages: [(page, [1, 2, 3, 4])], kinds: ["missingAsset"]))
        contentNamedAssets(&s)
    }

    /// D-043, D-045, K-014: assets named by a content id (the 3 bytes `abc`) that hold those
    /// bytes, and that hold other bytes (one flipped): only the second is an error.
    static func contentNamedAssets(_ s: inout ConformanceSuite) {
        let abc = VectorFixtures.uuid("ba7816bf-8f01-8fea-8141-40de5dae2223")
        for (name, bytes, exit, kinds) in [
            ("ok-package-content-named-asset.lnote", Array("abc".utf8), 0, [String]()),
            ("bad-package-asset-content-mismatch.lnote", Array("abd".utf8), 4, ["assetContentMismatch"])
        ] {
            var j = FileBuilder.journal()
            _ = j.appends([1], from: 1)
            j.change(.append(VectorFixtures.image(2, asset: abc, page: 1)), sequence: 2)
            s.add(name + "/document.json", documentJSON(pages: [(page, 2)]))
            s.add(name + "/manifest.json", manifestJSON(pageCount: 1, cover: page))
            s.add(name + "/pages/" + PageFileNames.journal(page, base: 0), j.bytes)
            s.add(name + "/assets/\(abc).pdf", bytes)
            s.entry(
                name, "package", nil, rules: ["D-043", "D-045", "K-014", "E-014"],
                expect: expect(exit: exit, pages: [(page, [1, 2])], kinds: kinds))
        }
    }

    /// D-080: which manifest fields make it stale.
    static func manifestVariants(_ s: inout ConformanceSuite) {
        let variants: [(String, String, String, Int, [String])] = [
            (
                "bad-package-manifest-other-format.lnote", "\"format\":\"lnote.manifest\"",
                "\"format\":\"lnote.other\"", 4, ["staleManifest"]
            ),
            (
                "bad-package-manifest-upper-case-id.lnote", "\"id\":\"\(documentID)\"",
                "\"id\":\"\(documentID.description.uppercased())\"", 4, ["staleManifest"]
            ),
            (
                "bad-package-manifest-other-cover.lnote", "thumbnails/\(page).png", "thumbnails/\(otherPage).png", 4,
                ["staleManifest"]
            )
        ]
        for (name, from, to, exit, kinds) in variants {
            Self.package(&s, name)
            let text = String(decoding: manifestJSON(pageCount: 1, cover: page), as: UTF8.self)
            let edited = text.replacing(from, with: to)
            precondition(edited != text, "manifest.json layout changed")
            s.replace(name + "/manifest.json", with: Array(edited.utf8))
            s.entry(
                name, "package", nil, rules: ["D-080", "D-031"],
                expect: expect(exit: exit, pages: [(page, [1, 2, 3])], kinds: kinds))
        }
    }
}
