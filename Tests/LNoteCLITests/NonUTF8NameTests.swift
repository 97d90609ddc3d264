import Foundation
import LNoteFormat
import LNoteHandwriting
import LNoteStore
import Testing

/// D-035: file names are bytes. A name that is not UTF-8 (Linux allows any bytes) is listed,
/// checked, merged, copied and removed by its exact bytes, by the engine and by `lnote`; the
/// tool's arguments and current folder are read as bytes too. Before, such a name was read
/// as U+FFFD: `lnote merge` and `lnote fsck --repair` failed (exit 8) on a package holding a
/// conflict copy named by a device of another locale, and no command could open a package
/// under a folder so named.
@Suite(.serialized) struct NonUTF8NameTests {
    /// Runs `script` with `sh -c` after `L=<lnote>` and `D=<dir>` (so raw bytes come from printf).
    private func sh(_ dir: String, _ script: String) throws -> Tool.Result {
        try Tool.shell("L='\(Tool.executable)'; D='\(dir)'; " + script)
    }

    /// The text D-035 gives the NUL-terminated bytes `name`.
    private func text(_ name: [UInt8]) -> String {
        name.withUnsafeBufferPointer { b in
            fileNameText(UnsafeRawPointer(b.baseAddress!).assumingMemoryBound(to: CChar.self))
        }
    }

    @Test(
        "D-035 a name's text gives back exactly its bytes, for random and adversarial names; UTF-8 names are unchanged")
    func roundTrip() {
        var rng = SplitMix64(seed: 35)
        var cases: [[UInt8]] = [
            [0xFF], [0x61, 0xFF, 0x62], [0xC3], [0xC3, 0xA9], [0xC0, 0xAF], [0xED, 0xA0, 0x80],
            [0xF4, 0x90, 0x80, 0x80],
            [0xF4, 0x8F, 0xBE, 0x80], [0xF4, 0x8F, 0xBF, 0xBF], [0xF4, 0x8F, 0xBD, 0xBF], [0xF4, 0x8F, 0xBF],
            [0xE2, 0x82],
            [0xF0, 0x9F, 0x98, 0x80], [0x80], [0xBF, 0xBF], [0xF8, 0x88, 0x80, 0x80, 0x80],
            Array("plain-name.lnote".utf8)
        ]
        for _ in 0..<20_000 {
            let count = Int(rng.next() % 24) + 1
            cases.append(
                (0..<count).map { _ in
                    let r = rng.next()
                    // Mostly the bytes names are made of: ASCII, UTF-8 leads and continuations, the reserved F4 8F BE/BF.
                    let pool: [UInt8] = [
                        0x61, 0x2E, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0xF4, 0x8F, 0xBE, 0xBF, 0x80, 0xFF, 0xC0
                    ]
                    return r % 3 == 0 ? UInt8(truncatingIfNeeded: r >> 8) | 1 : pool[Int(r >> 8) % pool.count]
                }.map { $0 == 0x2F ? 0x30 : $0 })
        }
        var escaped = 0
        for name in cases {
            let t = text(name + [0])
            let back = fileNameBytes(t).map { UInt8(bitPattern: $0) }.prefix { $0 != 0 }
            #expect(Array(back) == name, "\(name)")
            if let utf8 = String(validating: name, as: UTF8.self),
                !utf8.unicodeScalars.contains(where: { (0x10FF80...0x10FFFF).contains($0.value) })
            {
                #expect(t == utf8, "\(name)")
            } else {
                escaped += 1
                #expect(t.unicodeScalars.contains { (0x10FF80...0x10FFFF).contains($0.value) }, "\(name)")
            }
        }
        #expect(escaped > 10_000)
        #expect(text([0x61, 0xFF, 0x00]) == "a\u{10FFFF}")
        #expect(text([0xF4, 0x8F, 0xBF, 0xBF, 0x00]) == "\u{10FFF4}\u{10FF8F}\u{10FFBF}\u{10FFBF}")
        #expect(text([0xC3, 0xA9, 0xFF, 0x00]) == "\u{10FFC3}\u{10FFA9}\u{10FFFF}", "not UTF-8: every byte >= 0x80")
        #expect(text([0xC3, 0xA9, 0x00]) == "é")
    }

    @Test(
        "D-035 a path whose bytes fit PATH_MAX but whose text (4 bytes a byte) does not is written and read by its bytes",
        .enabled(if: Volume.nonUTF8Names, Volume.nonUTF8Skip))
    func longPath() throws {
        let dir = Tool.folder()
        defer { _ = try? Tool.shell("rm -rf '\(dir)'") }
        let component = String(repeating: "\u{10FFE9}", count: 200)  // 200 bytes on disk, 800 of text
        let folder = dir + String(repeating: "/" + component, count: 15)  // 3,015 bytes on disk, 12,015 of text
        let fs = POSIXFileSystem.shared
        try fs.makeDirectories(folder)
        try fs.writeFileAtomically(folder + "/f\u{10FFFF}.bin", [1, 2, 3], durability: .none)
        #expect(try fs.readFile(folder + "/f\u{10FFFF}.bin") == [1, 2, 3])
        #expect(try fs.list(folder) == ["f\u{10FFFF}.bin"])
        let found = try sh(dir, "find \"$D\" -type f | wc -c")
        #expect(
            Int(found.stdout.trimmingCharacters(in: .whitespacesAndNewlines)) == dir.utf8.count + 15 * 201 + 7 + 1,
            "the file is at the bytes' path: \(found.stdout)")
        // A path whose bytes do not fit either is refused by the kernel, not written elsewhere.
        let tooLong = dir + String(repeating: "/" + component, count: 21)
        #expect(throws: (any Error).self) { try fs.makeDirectories(tooLong) }
    }

    @Test(
        "D-035 Y-001 Y-019 a conflict copy named in Latin-1 is merged by lnote merge and fsck --repair, and removed",
        .enabled(if: Volume.nonUTF8Names, Volume.nonUTF8Skip))
    func latin1ConflictCopies() throws {
        let dir = Tool.folder()
        defer { _ = try? Tool.shell("rm -rf '\(dir)'") }  // names Foundation cannot spell
        let package = try Tool.generatedPackage(in: dir + "/lib", strokes: 3, journalFrames: 2)
        let page = try #require(
            try FileManager.default.contentsOfDirectory(atPath: package + "/pages").first { $0.hasSuffix(".journal") })
        let stem = String(page.dropLast(".journal".count))
        let made = try sh(
            dir, "cd '\(package)' && cp document.json \"document (M$(printf '\\374')ller's conflicted copy).json\"")
        #expect(made.status == 0, "\(made.stderr)")
        let merge = try Tool.run(["merge", package])
        #expect(merge.status == 1, "\(merge.stdout) \(merge.stderr)")
        #expect(
            merge.stdout.contains("merged: document (M\\xFCller's conflicted copy).json (of document.json)"),
            "\(merge.stdout)")
        let left = try sh(dir, "cd '\(package)' && ls | grep -c conflicted")
        #expect(left.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(left.stdout)")

        let journal = try sh(
            dir, "cd '\(package)/pages' && cp \(page) \"\(stem) (caf$(printf '\\351') conflicted copy).journal\"")
        #expect(journal.status == 0, "\(journal.stderr)")
        let repair = try Tool.run(["fsck", "--repair", package])
        #expect(repair.status == 1, "\(repair.stdout) \(repair.stderr)")
        #expect(repair.stderr.contains("merged: \(stem) (caf\\xE9 conflicted copy).journal"), "\(repair.stderr)")
        let after = try sh(dir, "cd '\(package)/pages' && ls | grep -c conflicted")
        #expect(after.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0", "\(after.stdout)")
        #expect(try Tool.run(["fsck", package]).status == 0)
    }

    @Test(
        "D-035 K-019 K-034 foreign names that are not UTF-8 are reported by their bytes and kept, byte for byte, by a repair",
        .enabled(if: Volume.nonUTF8Names, Volume.nonUTF8Skip))
    func foreignNames() throws {
        let dir = Tool.folder()
        defer { _ = try? Tool.shell("rm -rf '\(dir)'") }  // names Foundation cannot spell
        let package = try Tool.generatedPackage(in: dir + "/lib", strokes: 3, journalFrames: 2)
        let made = try sh(
            dir,
            """
            cd '\(package)' && printf a > "pages/x$(printf '\\377')y.bin" && mkdir -p assets && printf b > "assets/$(printf '\\303').png" \
            && printf c > "$(printf '\\376')top"
            """)
        #expect(made.status == 0, "\(made.stderr)")
        let json = try Tool.run(["fsck", "--json", package])
        #expect(json.status == 0, "\(json.stdout) \(json.stderr)")
        let findings = (try Tool.json(json.stdout)["findings"] as? [[String: Any]]) ?? []
        let unknown = Set(
            findings.filter { $0["kind"] as? String == "unknownFile" }.compactMap { $0["file"] as? String })
        #expect(unknown == ["pages/x\u{10FFFF}y.bin", "assets/\u{10FFC3}.png"], "\(findings)")
        if let python = ReaderAgreementTests.python() {  // the Python reference names them the same way
            let reference = try Tool.run(
                [ReaderAgreementTests.reference, "fsck", "--json", package], executable: python)
            let theirs = (try Tool.json(reference.stdout)["findings"] as? [[String: Any]]) ?? []
            #expect(
                Set(theirs.filter { $0["kind"] as? String == "unknownFile" }.compactMap { $0["file"] as? String })
                    == unknown,
                "\(reference.stdout) \(reference.stderr)")
        }
        let repair = try Tool.run(["fsck", "--repair", package])
        #expect(repair.status == 0, "\(repair.stdout) \(repair.stderr)")
        let kept = try sh(
            dir,
            """
            cd '\(package)' && [ "$(cat "pages/x$(printf '\\377')y.bin")" = a ] && [ "$(cat "assets/$(printf '\\303').png")" = b ] \
            && [ "$(cat "$(printf '\\376')top")" = c ] && echo kept
            """)
        #expect(kept.stdout.contains("kept"), "\(kept.stdout) \(kept.stderr)")
    }

    @Test(
        "D-035 a library in a folder named in Latin-1: fsck, ls, info and merge by path and from inside it; the library API lists, duplicates and deletes",
        .enabled(if: Volume.nonUTF8Names, Volume.nonUTF8Skip))
    func libraryUnderLatin1Folder() async throws {
        let dir = Tool.folder()
        defer { _ = try? Tool.shell("rm -rf '\(dir)'") }  // names Foundation cannot spell
        let id = UUID().uuidString.lowercased()
        let made = try sh(
            dir,
            """
            W="$D/caf$(printf '\\351')" && $L gen "$W/\(id).lnote" --pages 1 --strokes 2 >/dev/null \
            && mkdir -p "$W/\(id).lnote/assets" && printf z > "$W/\(id).lnote/assets/$(printf '\\377').bin"
            """)
        #expect(made.status == 0, "\(made.stdout) \(made.stderr)")
        let run = try sh(
            dir,
            """
            W="$D/caf$(printf '\\351')"; $L fsck "$W" >/dev/null; a=$?; $L ls "$W" >/dev/null; b=$?; $L info "$W/\(id).lnote" >/dev/null; c=$?
            $L merge "$W" >/dev/null; d=$?; cd "$W/\(id).lnote" && $L fsck . >/dev/null; e=$?; echo "$a $b $c $d $e"
            """)
        let ls = try sh(dir, "$L ls \"$D/caf$(printf '\\351')\"")
        #expect(ls.stdout.contains("cover \(dir)/caf\\xE9/\(id).lnote/thumbnails/"), "K-034: \(ls.stdout)")
        #expect(
            run.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0 0 0 0 0", "\(run.stdout) \(run.stderr)")

        let demo = try sh(dir, "$L demo \"$D/d$(printf '\\351')mo\" --strokes 40; echo \"exit=$?\"; ls \"$D\" | wc -l")
        #expect(
            demo.stdout.contains("acknowledged strokes present, 0 lost") && demo.stdout.contains("exit=0"),
            "\(demo.stdout) \(demo.stderr)")
        #expect(
            !demo.stdout.contains("after 0 acknowledged saves"), "the writer process found its package: \(demo.stdout)")
        #expect(
            demo.stdout.contains("Everything is in \(dir)/d\\xE9mo:") && !demo.stdout.contains("\u{10FFE9}"),
            "K-034: the byte is shown as \\xE9: \(demo.stdout)")
        #expect(
            demo.stdout.hasSuffix("2\n"),
            "the demo's writer process wrote in the demo's folder, not one named otherwise: \(demo.stdout)")

        let library = NoteLibrary(folder: dir + "/caf\u{10FFE9}", fileSystem: POSIXFileSystem.shared)
        let listed = try await library.list()
        #expect(listed.count == 1 && listed.first?.error == nil, "\(listed)")
        let original = try #require(UUIDBytes(string: id))
        let copy = try await library.duplicateDocument(original)
        let copied = try sh(dir, "cat \"$D/caf$(printf '\\351')/\(copy).lnote/assets/$(printf '\\377').bin\"")
        #expect(copied.stdout == "z", "the duplicate copies the file by its bytes: \(copied.stderr)")
        try await library.deleteDocument(original)
        try await library.deleteDocument(copy)
        #expect(try await library.purgeTrash() == 2)  // T-022: deleting keeps them in .trash until purged
        let rest = try sh(dir, "ls -A \"$D/caf$(printf '\\351')\" | wc -l")
        #expect(
            rest.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "0",
            "nothing is left of either: \(rest.stdout)")
    }
}
