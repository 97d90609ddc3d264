import Foundation
import LNoteStore
import Testing

@Test("every recovery finding kind the engine writes has a RecoveryFindingKind case")
func recoveryKindsAreTyped() throws {
    var kinds = Set(ScanFindingKind.allCases.map(\.rawValue))
    kinds.formUnion(["duplicateElement", "missingElement"])  // ApplyNote.Kind
    let store = PublicSurface.root().appending(path: "Sources/LNoteStore")
    let files =
        FileManager.default.enumerator(at: store, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
    for file in files where file.pathExtension == "swift" {
        let text = try String(contentsOf: file, encoding: .utf8)
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
