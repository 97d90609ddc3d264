import LNoteCheck
import LNoteFormat
import LNoteConformance
import LNoteSimulation
import LNoteStore
import Testing

/// Paths of the repository this test file lives in.
enum Repo {
    /// `<repo>/Tests/ConformanceTests/<this file>` -> `<repo>`.
    static let root: String = {
        var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
        parts.removeLast(3)
        return parts.joined(separator: "/")
    }()
    static let vectors = root + "/Spec/vectors"
    static let fs = POSIXFileSystem()

    /// Every regular file under `path`, as paths relative to it, sorted.
    static func files(under path: String, prefix: String = "") throws -> [String] {
        var out: [String] = []
        for name in try fs.list(path).sorted() {
            let full = joinPath(path, name)
            switch try fs.kind(full) {
            case .directory?: out += try files(under: full, prefix: prefix + name + "/")
            case .file?: out.append(prefix + name)
            default: break
            }
        }
        return out
    }

    /// Removes a folder this test made under /tmp, files first.
    static func removeTree(_ path: String) {
        guard path.hasPrefix("/tmp/lnote-"), let names = try? fs.list(path) else { return }
        for name in names {
            let full = joinPath(path, name)
            if (try? fs.kind(full)) == .directory { removeTree(full) } else { try? fs.remove(full) }
        }
        try? fs.remove(path)
    }

    static func text(_ path: String) throws -> String {
        String(decoding: try fs.readFile(path), as: UTF8.self)
    }
}

/// fsck as the runner's package checker: check only, error kinds.
let fsckCheck: ConformanceRunner.PackageCheck = { path in
    let report = try Fsck.check(path: path)
    return (Int(report.status), Set(report.findings.filter { $0.severity == .error }.map(\.kind)).sorted())
}

@Suite("Conformance vectors")
struct ConformanceVectorTests {
    @Test("every checked-in vector passes this implementation (the `lnote conformance` runner)")
    func allVectorsPass() throws {
        let outcomes = try ConformanceRunner.run(directory: Repo.vectors, packageCheck: fsckCheck)
        let failures = outcomes.compactMap { $0.failure == nil ? nil : $0.line }
        #expect(failures.isEmpty, "\(failures.joined(separator: "\n"))")
        #expect(outcomes.count == ConformanceVectors.suite().entries.count)
        #expect(ConformanceRunner.summary(outcomes) == "\(outcomes.count) passed, 0 failed")
    }

    @Test("the suite covers every vector kind, outcome prefix and replay mode")
    func coverage() {
        let suite = ConformanceVectors.suite()
        let kinds = Set(suite.entries.map(\.kind))
        #expect(kinds == ["journal", "snapshot", "points", "page", "package"])
        for prefix in ["ok-", "torn-", "bad-"] {
            #expect(suite.entries.contains { $0.name.hasPrefix(prefix) }, "no \(prefix) vector")
        }
        for kind in ["journal", "snapshot", "page"] {
            let modes = Set(suite.entries.filter { $0.kind == kind }.compactMap(\.mode))
            #expect(modes == Set(ReplayMode.allCases), "\(kind) vectors miss a mode")
        }
        // Names state the outcome: every entry name starts with ok-, torn- or bad-.
        #expect(
            suite.entries.allSatisfy {
                $0.name.hasPrefix("ok-") || $0.name.hasPrefix("torn-") || $0.name.hasPrefix("bad-")
            })
    }

    @Test("regenerating the vectors gives the checked-in bytes, file for file")
    func regenerationIsByteIdentical() throws {
        let first = ConformanceVectors.suite(), second = ConformanceVectors.suite()
        #expect(first.manifestBytes() == second.manifestBytes())
        #expect(first.files.map(\.path) == second.files.map(\.path))
        #expect(zip(first.files, second.files).allSatisfy { $0.bytes == $1.bytes })

        // Written to a fresh folder, every file equals the checked-in one, and nothing else is there.
        let temp = "/tmp/lnote-conformance-\(getpid())"
        Repo.removeTree(temp)
        defer { Repo.removeTree(temp) }
        try ConformanceVectors.write(to: temp)
        let written = try Repo.files(under: temp)
        let checkedIn = try Repo.files(under: Repo.vectors).filter { !$0.hasPrefix(".") }
        #expect(written == checkedIn)
        for path in written {
            let a = try Repo.fs.readFile(joinPath(temp, path)), b = try Repo.fs.readFile(joinPath(Repo.vectors, path))
            #expect(
                a == b, "\(path) differs from the checked-in vector; run `lnote conformance --generate Spec/vectors`")
        }
    }

    @Test("the runner fails a vector whose expectation is wrong, and files the manifest does not list")
    func runnerDetectsMismatches() throws {
        let temp = "/tmp/lnote-conformance-tamper-\(getpid())"
        Repo.removeTree(temp)
        defer { Repo.removeTree(temp) }
        try ConformanceVectors.write(to: temp)
        var manifest = try Repo.text(joinPath(temp, "manifest.json"))
        // ok-journal-three-strokes: frames end at 252; claim 251.
        let original =
            "\"validEnd\":252,\"findings\":[],\"elements\":[\"e1e00000-0000-4000-8000-000000000001\",\"e1e00000-0000-4000-8000-000000000002\",\"e1e00000-0000-4000-8000-000000000003\"]}},"
        #expect(manifest.contains(original))
        manifest = manifest.replacing(original, with: original.replacing("252", with: "251"), maxReplacements: 1)
        try Repo.fs.writeFileAtomically(joinPath(temp, "manifest.json"), Array(manifest.utf8), durability: .none)
        try Repo.fs.writeFileAtomically(joinPath(temp, "stray.journal"), [1, 2, 3], durability: .none)
        let outcomes = try ConformanceRunner.run(directory: temp, packageCheck: fsckCheck)
        let failed = outcomes.filter { $0.failure != nil }.map(\.label)
        #expect(failed == ["ok-journal-three-strokes.journal [salvage]", "stray.journal"])
        #expect(ConformanceRunner.summary(outcomes).hasSuffix(", 2 failed"))
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
