import Foundation
import LNoteCheck
import Testing

/// The reason codes K-010 lists, read from the spec's own text.
private func specReasonCodes() throws -> [String] {
    let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    let spec = try String(contentsOf: root.appending(path: "Spec/format.md"), encoding: .utf8)
    guard let start = spec.range(of: "- [K-010]") else { return [] }
    let tail = spec[start.upperBound...]
    let end = tail.range(of: "\n- [")?.lowerBound ?? tail.endIndex
    let parts = tail[..<end].split(separator: "`", omittingEmptySubsequences: false)
    return stride(from: 1, to: parts.count, by: 2).map { String(parts[$0]) }.filter { $0.first?.isLowercase == true }
}

@Test("K-010 every reason code the spec lists is a FsckFindingKind case")
func fsckReasonCodesAreTyped() throws {
    let codes = try specReasonCodes()
    #expect(codes.count >= 40)
    for code in codes { #expect(FsckFindingKind(rawValue: code) != nil, "no case for \(code)") }
    let finding = FsckFinding(kind: "staleManifest", severity: .error, file: "m", action: .none, detail: "")
    #expect(finding.reason == .staleManifest)
    #expect(
        FsckPage(
            id: "x", package: "", elements: 0, framesReplayed: 0, framesDropped: 0, generation: 0,
            state: "repaired"
        ).pageState == .repaired)
}
