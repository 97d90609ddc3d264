import Foundation
import Testing

// The public surface an app sees through `import LNoteStore` (LNoteStore and the LNoteFormat
// types it re-exports, listed in Sources/LNoteStore/Exports.swift), `import LNoteRender`
// (the engine's thumbnail renderer, a product of its own) and `import LNoteSync` (the merge of
// sync clients' conflict copies, another), listed in `public-api.txt` so it only changes on purpose. After an
// intended change, regenerate the list: LNOTE_UPDATE_API=1 swift test --filter PublicSurface

/// Extracts public declarations from Swift source: each `public` declaration, and each `case`
/// of a public enum, as `Scope.decl` with its signature (up to `{` or `=`), whitespace folded.
enum PublicSurface {
    static let modules = ["LNoteStore", "LNoteFormat", "LNoteRender", "LNoteSync"]

    /// The package root (`LNOTE_API_ROOT` overrides it, to list another checkout's surface).
    static func root() -> URL {
        if let other = ProcessInfo.processInfo.environment["LNOTE_API_ROOT"] { return URL(filePath: other) }
        return URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
    }

    static func declarations() throws -> [String] {
        var out: Set<String> = []
        for module in modules {
            let dir = root().appending(path: "Sources/\(module)")
            let files =
                FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?
                .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
            let visible = module == "LNoteFormat" ? try exportedFormatTypes() : nil
            for file in files {
                for decl in scan(try String(contentsOf: file, encoding: .utf8))
                where visible.map({ isIn(decl, $0) }) ?? true {
                    out.insert("\(module): \(decl)")
                }
            }
        }
        return out.sorted()
    }

    /// The format types LNoteStore re-exports (`@_exported import struct LNoteFormat.Stroke`).
    static func exportedFormatTypes() throws -> Set<String> {
        let exports = try String(
            contentsOf: root().appending(path: "Sources/LNoteStore/Exports.swift"), encoding: .utf8)
        var names: Set<String> = []
        for line in exports.split(separator: "\n") where line.hasPrefix("@_exported import ") {
            guard let dot = line.range(of: "LNoteFormat", options: .backwards) else { continue }
            let rest = line[dot.upperBound...]
            names.insert(rest.hasPrefix(".") ? String(rest.dropFirst()) : "*")
        }
        return names
    }

    /// Whether a declaration scanned from the format module is visible through the exports.
    private static func isIn(_ decl: String, _ visible: Set<String>) -> Bool {
        if visible.contains("*") { return true }
        if decl.hasPrefix("[") {
            let scope = decl.dropFirst().prefix { $0 != "]" && $0 != "." }
            return visible.contains(String(scope))
        }
        let words = decl.split(separator: " ")
        guard let k = words.firstIndex(where: { typeKeywords.contains(String($0)) }), k + 1 < words.count else {
            return false
        }
        return visible.contains(String(words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" }))
    }

    private static let typeKeywords = ["enum", "struct", "class", "actor", "protocol", "extension"]

    /// One pass with a stack of scopes `(name, isPublicEnum, depth)`, counting braces.
    static func scan(_ text: String) -> [String] {
        var found: [String] = []
        var scopes: [(name: String, publicEnum: Bool, hidden: Bool, depth: Int)] = []
        var depth = 0
        for line in logicalLines(text) {
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
            let scopeName = scopes.last?.name
            let hidden = scopes.last?.hidden ?? false
            let isPublic = words.contains("public") && !hidden
            if let k = words.firstIndex(where: { typeKeywords.contains($0) }), k + 1 < words.count,
                words[..<k].allSatisfy({ $0.hasPrefix("@") || ["public", "final", "indirect", "package"].contains($0) })
            {
                let name = String(words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "." })
                let full = scopeName.map { "\($0).\(name)" } ?? name
                let typeIsPublic = words[..<k].contains("public") && !hidden
                if typeIsPublic { found.append(signature(line, scope: scopeName)) }
                if line.contains("{") {
                    // Members of a type that is not public are not API; an extension's are when marked.
                    let opensHidden = hidden || (words[k] != "extension" && !typeIsPublic)
                    scopes.append((full, typeIsPublic && words[k] == "enum", opensHidden, depth))
                }
            } else if isPublic, !words.contains("import") {
                found.append(signature(line, scope: scopeName))
            } else if let scope = scopes.last, scope.publicEnum, depth == scope.depth + 1, words.first == "case" {
                found.append(signature(line, scope: scopeName))
            }
            for c in line {
                if c == "{" { depth += 1 }
                if c == "}" {
                    depth -= 1
                    if let scope = scopes.last, scope.depth == depth { scopes.removeLast() }
                }
            }
        }
        return found
    }

    /// The text's lines without comments, a declaration the formatter wrapped inside its
    /// parentheses or brackets joined into one line, as if written on one.
    static func logicalLines(_ text: String) -> [String] {
        var out: [String] = []
        var pending = ""
        var open = 0
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = String(raw)
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            pending = pending.isEmpty ? line : pending + " " + line.trimmingCharacters(in: .whitespaces)
            var inString = false
            var escaped = false
            for c in line {
                if inString {
                    if escaped {
                        escaped = false
                    } else if c == "\\" {
                        escaped = true
                    } else if c == "\"" {
                        inString = false
                    }
                    continue
                }
                if c == "\"" { inString = true }
                if c == "(" || c == "[" { open += 1 }
                if c == ")" || c == "]" { open -= 1 }
            }
            if open <= 0 {
                out.append(pending.replacingOccurrences(of: "( ", with: "(").replacingOccurrences(of: " )", with: ")"))
                pending = ""
                open = 0
            }
        }
        if !pending.isEmpty { out.append(pending) }
        return out
    }

    private static func signature(_ line: String, scope: String?) -> String {
        // `@_optimize(size)` (code-size tuning of cold API, see BenchSuiteSize) is not API, nor is
        // `@_alwaysEmitIntoClient` (a thin convenience compiled into the app that calls it).
        var s = line.replacingOccurrences(of: "@_optimize(size) ", with: "")
            .replacingOccurrences(of: "@_alwaysEmitIntoClient ", with: "")
        if let brace = s.firstIndex(of: "{") { s = String(s[..<brace]) }
        if let eq = s.range(of: " = ") { s = String(s[..<eq.lowerBound]) }
        let folded = s.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
        return (scope.map { "[\($0)] " } ?? "") + folded
    }
}

@Test("the public surface matches public-api.txt (regenerate with LNOTE_UPDATE_API=1 on purpose)")
func publicSurfaceIsListed() throws {
    let listed = PublicSurface.root().appending(path: "Tests/LNotePublicAPITests/public-api.txt")
    let current = try PublicSurface.declarations().joined(separator: "\n") + "\n"
    if ProcessInfo.processInfo.environment["LNOTE_UPDATE_API"] == "1" {
        try current.write(to: listed, atomically: true, encoding: .utf8)
    }
    let expected = try String(contentsOf: listed, encoding: .utf8)
    let added = Set(current.split(separator: "\n")).subtracting(expected.split(separator: "\n"))
    let removed = Set(expected.split(separator: "\n")).subtracting(current.split(separator: "\n"))
    #expect(added.isEmpty, "public declarations not in public-api.txt: \(added.sorted())")
    #expect(removed.isEmpty, "public-api.txt lists declarations that are gone: \(removed.sorted())")
}

@Test("the scanner finds public members, enum cases and nested types, and skips private ones")
func publicSurfaceScanner() {
    let found = PublicSurface.scan(
        """
        public enum Mode: Sendable {
            case a, b
            public static func f() {}
            private func g() {}
        }
        struct Hidden { public var x: Int }
        public struct S { public private(set) var y: Int = 0; var z = 1 }
        """)
    #expect(
        found == [
            "public enum Mode: Sendable", "[Mode] case a, b", "[Mode] public static func f()",
            "public struct S"
        ])
}

/// The public types of a source text (visible ones only, as `PublicSurface.scan` finds them)
/// that no `///` doc comment precedes (attributes between them are skipped).
func undocumentedPublicTypes(_ text: String) -> [String] {
    let kinds = ["struct", "enum", "actor", "class", "protocol"]
    func typeName(_ decl: String) -> String? {
        let words = decl.split(separator: " ").map(String.init)
        guard let k = words.firstIndex(where: { kinds.contains($0) }), k > 0, words[k - 1] != "func",
            words[..<k].contains(where: { $0 == "public" || $0.hasSuffix("public") }), k + 1 < words.count
        else { return nil }
        return String(words[k + 1].prefix { $0.isLetter || $0.isNumber || $0 == "_" })
    }
    let visible = Set(
        PublicSurface.scan(text).compactMap { decl in
            typeName(decl.hasPrefix("[") ? String(decl.drop { $0 != "]" }.dropFirst(2)) : decl)
        })
    var documented: Set<String> = []
    var previous = ""
    for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
        let line = raw.trimmingCharacters(in: .whitespaces)
        let name = typeName(line)
        if line.hasPrefix("@"), name == nil { continue }  // an attribute on a line of its own
        if let name, previous.hasPrefix("///") { documented.insert(name) }
        previous = line
    }
    return visible.subtracting(documented).sorted()
}

@Test("every public type of the products has a doc comment (its DocC symbol page says what it is)")
func publicTypesAreDocumented() throws {
    var missing: [String] = []
    for module in PublicSurface.modules {
        let dir = PublicSurface.root().appending(path: "Sources/\(module)")
        let files =
            FileManager.default.enumerator(at: dir, includingPropertiesForKeys: nil)?
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
        let exported = module == "LNoteFormat" ? try PublicSurface.exportedFormatTypes() : nil
        for file in files {
            for name in undocumentedPublicTypes(try String(contentsOf: file, encoding: .utf8))
            where exported.map({ $0.contains(name) }) ?? true {
                missing.append("\(module)/\(file.lastPathComponent): \(name)")
            }
        }
    }
    #expect(missing.isEmpty, "public types without a doc comment: \(missing)")
}

@Test("the doc comment check finds an undocumented public type and passes a documented one")
func docCommentCheckFindsMissing() {
    let found = undocumentedPublicTypes(
        """
        /// Said.
        @frozen public struct A {}
        public enum B { case x }
        struct Hidden { public struct C {} }
        """)
    #expect(found == ["B"])
}
