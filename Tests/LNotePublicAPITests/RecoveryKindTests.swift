import Foundation
import LNoteStore
import Testing

@Test("every recovery finding kind the engine writes has a RecoveryFindingKind case")
func recoveryKindsAreTyped() throws {
    // The format's scanner kinds (ScanFindingKind, not exported to apps), read from its source.
    let scan = try String(
        contentsOf: PublicSurface.root().appending(path: "Sources/LNoteFormat/Frames/ScanResult.swift"), encoding: .utf8
    )
    let body = scan.split(separator: "enum ScanFindingKind", maxSplits: 1).last?.split(separator: "}").first ?? ""
    var kinds = Set(
        body.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix("case ") }.map { String($0.dropFirst(5)) })
    #expect(kinds.count >= 11 && kinds.contains("zeroFill"), "\(kinds)")
    kinds.formUnion(["duplicateElement", "missingElement"])  // ApplyNote.Kind
    let store = PublicSurface.root().appending(path: "Sources/LNoteStore")
    let files =
        FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    for file in files where file.pathExtension == "swift" {
        // A call the formatter wrapped reads as one written on one line.
        let text = try String(contentsOf: file, encoding: .utf8)
            .replacing(/RecoveryFinding\(\s+kind:/, with: "RecoveryFinding(kind:")
        for marker in ["RecoveryFinding(kind: \"", "static let kind = \""] {
            var rest = text[...]
            while let r = rest.range(of: marker) {
                let tail = rest[r.upperBound...]
                kinds.insert(String(tail.prefix { $0 != "\"" }))
                rest = tail
            }
        }
    }
    #expect(kinds.count > 25)
    for kind in kinds {
        #expect(RecoveryFindingKind(rawValue: kind) != nil, "no case for \(kind)")
    }
    #expect(RecoveryFinding(kind: "zeroFill", file: "x").reason == .zeroFill)
    #expect(RecoveryFinding(kind: "somethingNew", file: "x").reason == .other)
}
