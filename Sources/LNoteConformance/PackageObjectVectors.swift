import LNoteFormat
import LNoteStore

/// The package vectors of K-030 (what sits at each name the engine reads or writes) and of
/// J-001's journal names: the one-page package of `PackageVectors` with a folder where a file
/// belongs (holding one file, as git keeps no empty folder), a file where a folder belongs, or
/// a journal name whose base does not fit a `u64`.
enum PackageObjectVectors {
    static let placeholder = Array("a folder where the engine expects a file (K-030)\n".utf8)

    static func add(to s: inout ConformanceSuite) {
        let page = PackageVectors.page
        let journal = PageFileNames.journal(page, base: 0)
        let cases:
            [(name: String, remove: String?, add: String, bytes: [UInt8], kind: String, pages: [(UUIDBytes, [Int])])] =
                [
                    (
                        "bad-package-document-json-folder.lnote", "document.json", "document.json/note.txt",
                        placeholder,
                        "notRegularFile", []
                    ),
                    (
                        "bad-package-manifest-json-folder.lnote", "manifest.json", "manifest.json/note.txt",
                        placeholder,
                        "notRegularFile", [(page, [1, 2, 3])]
                    ),
                    (
                        "bad-package-journal-folder.lnote", nil, "pages/\(page).5.journal/note.txt", placeholder,
                        "notRegularFile", [(page, [])]
                    ),
                    (
                        "bad-package-pages-file.lnote", "pages/" + journal, "pages", Array("pages\n".utf8),
                        "notAFolder", [(page, [])]
                    ),
                    (
                        "bad-package-thumbnails-file.lnote", nil, "thumbnails", Array("thumbnails\n".utf8),
                        "notAFolder",
                        [(page, [1, 2, 3])]
                    ),
                    (
                        "bad-package-lost-and-found-file.lnote", nil, PackageLayout.lostAndFoundName,
                        Array("lost+found\n".utf8),
                        "notAFolder", [(page, [1, 2, 3])]
                    )
                ]
        for c in cases {
            PackageVectors.package(&s, c.name)
            if let remove = c.remove { s.files.removeAll { $0.path == c.name + "/" + remove } }
            s.add(c.name + "/" + c.add, c.bytes)
            s.entry(
                c.name, "package", nil, rules: ["K-030", "D-004"],
                expect: PackageVectors.expect(exit: 4, pages: c.pages, kinds: [c.kind]))
        }
        // K-035 (G36): a folder at a spelling P-024 shadows is reported by its kind, and the page
        // is not read, as opening it fails.
        do {
            let name = "bad-package-folder-at-shadowed-spelling.lnote"
            PackageVectors.package(&s, name)
            s.add(name + "/pages/" + PageNameCaseVectors.spelled(journal) + "/note.txt", placeholder)
            s.entry(
                name, "package", nil, rules: ["K-035", "K-030", "P-024", "D-004"],
                expect: PackageVectors.expect(exit: 4, pages: [(page, [])], kinds: ["notRegularFile"]))
        }
        // J-001: a base past 2^64 - 1 is no journal name (K-019: unknownFile, information).
        let name = "ok-package-journal-base-beyond-u64.lnote"
        PackageVectors.package(&s, name)
        s.add(name + "/pages/\(page).18446744073709551616.journal", s.bytes(of: name + "/pages/" + journal))
        s.entry(
            name, "package", nil, rules: ["J-001", "K-019"],
            expect: PackageVectors.expect(exit: 0, pages: [(page, [1, 2, 3])], kinds: []))
    }
}
