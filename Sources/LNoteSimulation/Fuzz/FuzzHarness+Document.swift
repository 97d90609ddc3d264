import LNoteFormat
import LNoteStore

extension FuzzHarness {
    /// `document.json` and `manifest.json` decoding (D-010, D-011, D-020, D-031). Input: the file.
    /// Invariants: no trap; a document that decodes re-encodes to bytes that decode to the same
    /// document, and encoding is stable (the second encoding equals the first); likewise a manifest.
    package static func documentJSON(_ data: [UInt8]) -> String? {
        if let document = try? DocumentFile.decode(data) {
            let encoded = document.encoded()
            guard let again = try? DocumentFile.decode(encoded) else {
                return "a decoded document.json does not decode after encoding"
            }
            if again != document { return "document.json changes through an encode/decode round trip" }
            if again.encoded() != encoded { return "document.json encoding is not stable" }
        }
        if let manifest = ManifestFile.decode(data) {
            let encoded = manifest.encoded()
            guard let again = ManifestFile.decode(encoded) else {
                return "a decoded manifest does not decode after encoding"
            }
            if again != manifest { return "manifest.json changes through an encode/decode round trip" }
        }
        return nil
    }
}
