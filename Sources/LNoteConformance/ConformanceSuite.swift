import LNoteFormat
import LNoteStore

/// One entry of `Spec/vectors/manifest.json` (Spec/README.md): a file or folder, the mode it
/// is read in, the rules it exercises and the expected result.
package struct ConformanceEntry: Sendable {
    package var name: String
    /// `journal`, `snapshot`, `points`, `page` or `package`.
    package var kind: String
    /// `salvage`, `prefix` or `strict`; nil for `points` and `package`.
    package var mode: ReplayMode?
    package var rules: [String]
    /// Inputs beside the file: `replayFrom` (journal), `count` and `hasAngles` (points).
    package var inputs: [(String, JSONValue)]
    package var expect: [(String, JSONValue)]

    /// The entry as a manifest object, keys in a fixed order.
    var json: JSONValue {
        var pairs: [(String, JSONValue)] = [("name", .string(name)), ("kind", .string(kind))]
        if let mode { pairs.append(("mode", .string(mode.rawValue))) }
        pairs.append(("rules", .array(rules.map { .string($0) })))
        pairs += inputs
        pairs.append(("expect", .object(expect)))
        return .object(pairs)
    }
}

/// A file of the suite: its path relative to the vectors folder and its bytes.
package struct ConformanceFile: Sendable {
    package var path: String
    package var bytes: [UInt8]
}

/// The generated conformance suite: every file and the manifest entries that describe them.
package struct ConformanceSuite: Sendable {
    package var files: [ConformanceFile] = []
    package var entries: [ConformanceEntry] = []

    /// `manifest.json`: one entry per line inside a `vectors` array, so diffs stay readable.
    package func manifestBytes() -> [UInt8] {
        var s = "{\n  \"format\": \"lnote.conformance\",\n  \"version\": 1,\n  \"vectors\": [\n"
        for (i, e) in entries.enumerated() {
            s += "    " + e.json.compact + (i + 1 < entries.count ? ",\n" : "\n")
        }
        s += "  ]\n}\n"
        return Array(s.utf8)
    }

    /// Top-level names in the vectors folder the manifest must list (folders once).
    package var topLevelNames: Set<String> {
        Set(files.map { String($0.path.split(separator: "/", maxSplits: 1)[0]) })
    }

    mutating func add(_ path: String, _ bytes: [UInt8]) {
        files.append(ConformanceFile(path: path, bytes: bytes))
    }

    /// The file at `path` with new bytes (it moves to the end of `files`).
    mutating func replace(_ path: String, with bytes: [UInt8]) {
        files.removeAll { $0.path == path }
        add(path, bytes)
    }

    /// The bytes of the file at `path`, already added (a generator's error otherwise).
    func bytes(of path: String) -> [UInt8] {
        guard let file = files.first(where: { $0.path == path }) else { preconditionFailure("\(path) not built") }
        return file.bytes
    }

    /// The file at `path` (already added) with its bytes changed by `change`.
    mutating func edit(_ path: String, _ change: ([UInt8]) -> [UInt8]) {
        replace(path, with: change(bytes(of: path)))
    }

    mutating func entry(
        _ name: String, _ kind: String, _ mode: ReplayMode?, rules: [String],
        inputs: [(String, JSONValue)] = [], expect: [(String, JSONValue)]
    ) {
        entries.append(
            ConformanceEntry(
                name: name, kind: kind, mode: mode, rules: rules, inputs: inputs,
                expect: expect))
    }
}

/// JSON pieces of the expectations, in the shapes of Spec/README.md.
enum Expect {
    static func frames(_ refs: [FrameRef]) -> JSONValue {
        .array(
            refs.map {
                .object([
                    ("sequence", JSONValue($0.sequence)), ("type", JSONValue(Int($0.type))),
                    ("offset", JSONValue($0.offset))
                ])
            })
    }

    static func finding(_ kind: String, _ offset: Int, _ bytes: Int, torn: Bool = false) -> JSONValue {
        .object([
            ("kind", .string(kind)), ("offset", JSONValue(offset)), ("bytes", JSONValue(bytes)),
            ("tornTail", .bool(torn))
        ])
    }

    static func ids(_ ns: [Int]) -> JSONValue {
        .array(ns.map { .string(VectorFixtures.id($0).description) })
    }

    static func kinds(_ ks: [String]) -> JSONValue { .array(ks.sorted().map { .string($0) }) }

    /// The `expect` of a journal vector.
    static func journal(
        refused: Bool = false, headerValid: Bool = true, frames refs: [FrameRef], validEnd: Int,
        findings: [JSONValue], elements: [Int]
    ) -> [(String, JSONValue)] {
        [
            ("refused", .bool(refused)), ("headerValid", .bool(headerValid)),
            ("frames", frames(refused ? [] : refs)), ("validEnd", JSONValue(validEnd)),
            ("findings", .array(findings)), ("elements", ids(refused ? [] : elements))
        ]
    }

    /// The `expect` of a journal vector refused by strict mode.
    static func refusedJournal(headerValid: Bool = true, validEnd: Int, findings: [JSONValue]) -> [(String, JSONValue)]
    {
        // J-022: which findings accompany a refusal, and validEnd, are detail (not compared).
        journal(
            refused: true, headerValid: headerValid, frames: [], validEnd: validEnd, findings: findings, elements: []
        )
        .filter { $0.0 != "validEnd" && $0.0 != "findings" }
    }
}
