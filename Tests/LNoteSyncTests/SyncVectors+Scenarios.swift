import LNoteFormat
import LNoteSimulation
import LNoteStore
import LNoteSync

extension SyncVectors {
    /// Y-013 (Syncthing name): both devices append to one journal (same salt) after sharing
    /// strokes 1-3; A adds 4 and erases 1, B adds 5 and moves 2. Merged: A's page, then B's branch.
    static func journalFork() async throws -> Built {
        let a = SimulatedFileSystem(), b = SimulatedFileSystem()
        let docA = try await NoteLibrary(folder: "/lib", fileSystem: a).createDocument(
            title: "sync vector", pageOptions: options)
        let root = docA.path
        let pageA = try await docA.page(at: 0)
        try await pageA.append(contentsOf: [stroke(1), stroke(2), stroke(3)])
        try await docA.flush()  // journal 0, no snapshot yet
        try load(files(a, root), into: b, at: root)  // the last sync before the fork
        try await pageA.append(stroke(4)); try await pageA.delete([stroke(1).key])
        try await docA.flush()
        let docB = try await Document.open(path: root, pageOptions: options, fileSystem: b)
        let pageB = try await docB.page(id: pageA.key)
        try await pageB.append(stroke(5))
        try await pageB.setTransform(Transform(a: 1, b: 0, c: 0, d: 1, tx: 40, ty: 0), for: [stroke(2).key])
        try await docB.flush()
        var out = files(a, root)
        let journal = PageFileNames.journal(pageA.key, base: 0)
        out[
            "pages/"
                + journal.replacingOccurrences(of: ".journal", with: ".sync-conflict-20261201-120000-BBBBBBB.journal")] =
            files(b, root)["pages/" + journal]
        try await docA.close(); try await docB.close()
        return Built(
            entry: Entry(
                name: "merge-journal-fork-syncthing.lnote", rules: ["Y-001", "Y-010", "Y-011", "Y-012", "Y-013"],
                description: "one journal forked after a common prefix; copy named by Syncthing",
                pages: [PageExpect(id: pageA.key.description, elements: [id(2), id(3), id(4), id(5)])],
                forkUnknown: false),
            files: out)
    }

    /// Y-014, Y-015 (Dropbox names): after strokes 1-3 both devices compact; A adds 4, B adds 5
    /// and erases 3, each in a new journal (own salt) and a new snapshot.
    static func snapshotAndJournalCopies() async throws -> Built {
        let (a, b, root, pageID) = try await pair { _, page in
            try await page.append(contentsOf: [stroke(1), stroke(2), stroke(3)])
        }
        for (fs, work) in [(a, 0), (b, 1)] {
            let doc = try await Document.open(path: root, pageOptions: options, fileSystem: fs)
            let page = try await doc.page(id: pageID)
            if work == 0 {
                try await page.append(stroke(4))
            } else {
                try await page.append(stroke(5)); try await page.delete([stroke(3).key])
            }
            try await doc.close()
        }
        var out = files(a, root)
        let fromB = files(b, root)
        for name in [PageFileNames.snapshot(pageID), PageFileNames.journal(pageID, base: 1)] {
            let dot = name.lastIndex(of: ".")!
            out["pages/" + name[..<dot] + " (Bob's conflicted copy 2026-12-01)" + name[dot...]] = fromB["pages/" + name]
        }
        return Built(
            entry: Entry(
                name: "merge-snapshot-journal-dropbox.lnote", rules: ["Y-001", "Y-010", "Y-011", "Y-014", "Y-015"],
                description: "both devices compacted after the fork; snapshot and new journal copies named by Dropbox",
                pages: [PageExpect(id: pageID.description, elements: [id(1), id(2), id(4), id(5)])],
                forkUnknown: false),
            files: out)
    }

    /// Y-017, Y-018 (numbered names): A adds page P2, B adds page P3 after P1; B's
    /// document.json and manifest arrive as `document 2.json`, `manifest 2.json`.
    static func pageListUnion() async throws -> Built {
        let (a, b, root, first) = try await pair { _, page in try await page.append(stroke(1)) }
        var added: [UUIDBytes] = []
        for (fs, n) in [(a, 2), (b, 3)] {
            let doc = try await Document.open(path: root, pageOptions: options, fileSystem: fs)
            let p = UUIDBytes(try await doc.addPage())
            try await doc.page(id: p).append(stroke(n))
            try await doc.close()
            added.append(p)
        }
        var out = files(a, root)
        for (path, bytes) in files(b, root) where out[path] == nil { out[path] = bytes }  // B's new page: no conflict
        out["document 2.json"] = files(b, root)["document.json"]
        out["manifest 2.json"] = files(b, root)["manifest.json"]
        let pages = [
            PageExpect(id: first.description, elements: [id(1)]),
            PageExpect(id: added[1].description, elements: [id(3)]),  // after P1, its predecessor in the copy
            PageExpect(id: added[0].description, elements: [id(2)])
        ]
        return Built(
            entry: Entry(
                name: "merge-page-list-numbered.lnote", rules: ["Y-001", "Y-017", "Y-018"],
                description: "document.json page-list union; copies named `name 2.ext`",
                pages: pages, forkUnknown: false),
            files: out)
    }
}
