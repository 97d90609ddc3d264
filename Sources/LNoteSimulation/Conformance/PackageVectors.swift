import LNoteFormat
import LNoteStore

/// The package vectors (Spec/format.md section 10): small `.lnote` folders checked by fsck.
enum PackageVectors {
    static func add(to s: inout ConformanceSuite) {}
}
