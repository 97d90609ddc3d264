import Foundation
import LNoteStore
import Testing

/// What the temporary folder's volume can hold, probed once (VolumeProbe): tests that need
/// more skip there, saying why, instead of failing on a volume that cannot show the case.
enum Volume {
    static let folder = FileManager.default.temporaryDirectory.path
    /// False on a case-insensitive volume (the macOS default): two spellings of one name
    /// cannot both exist, and writing one overwrites the other.
    static let caseSensitive = (try? VolumeProbe.namesAreCaseSensitive(in: folder)) ?? true
    static let caseSkip: Comment =
        "SKIPPED: the temporary folder's volume is case-insensitive (the macOS default); two spellings of one name cannot both exist there"
    /// False where names must be UTF-8 (APFS refuses others with EILSEQ).
    static let nonUTF8Names = (try? VolumeProbe.acceptsNonUTF8Names(in: folder)) ?? true
    static let nonUTF8Skip: Comment =
        "SKIPPED: the temporary folder's volume refuses names that are not UTF-8 (EILSEQ, as APFS does)"
}
