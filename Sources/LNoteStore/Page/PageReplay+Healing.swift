import LNoteFormat

extension PageReplay {
    /// P-041 once every retained journal was gathered (`retainedOnly`: the journal now is one
    /// more, so it waits), and before any frame is applied on top of the snapshot: the damaged
    /// snapshot is read again with the frames its copies give back. The findings keep the
    /// damage (the file on disk is damaged, and kept whole, P-042) and add one `healed` per
    /// frame put back; the retained journals are marked damaged while they hold an element
    /// the page still lacks, so no compaction deletes them (P-042).
    mutating func healSnapshotUnlessRetained(_ retainedOnly: Bool) {
        guard !retainedOnly, let healing, let snapshot = damagedSnapshot else { return }
        self.healing = nil
        damagedSnapshot = nil
        var stillLost = snapshot.dropped
        // A retained journal may hold what the snapshot still lacks, even one whose own
        // damage kept it from giving copies: none is deleted before it is kept (P-042).
        defer {
            if stillLost > 0 || healing.copies.elements.contains(where: { !state.contains($0.key) }) {
                for name in retainedSeen { damaged.coldInsert(name) }
            }
        }
        let patches = healing.patches(for: snapshot.bytes, salt: snapshot.header.salt, read: state)
        guard !patches.isEmpty else { return }
        let healed = SnapshotFile.decode(
            SnapshotHealing.apply(patches, to: snapshot.bytes), name: snapshot.name,
            expectedPage: pageID, mode: mode, points: points, fileSize: snapshot.fileSize)
        // Accepted only when it keeps every element read, in the same order, and gains some.
        let kept = healed.state.elements.filter { state.contains($0.key) }.map(\.key)
        let gained = healed.state.elements.count - state.elements.count
        guard !healed.unusable, kept == state.elements.map(\.key), gained > 0 || healed.state.metadata != state.metadata
        else { return }
        stillLost = healed.elementFramesDropped
        state = healed.state
        cache = healed.cache
        snapshotIDs = state.elements.map(\.key)
        report.framesDropped -= max(0, snapshot.dropped - healed.elementFramesDropped)
        // The counts of S-003 and S-008 are those of the healed read.
        let counts: Set<String> = ["missingElements", "extraElements", "missingMetadata"]
        var findings = report.findings.filter { !($0.file == snapshot.name && counts.contains($0.kind)) }
        let from = healing.sources.joined(separator: ", ")
        var added = healed.findings.filter { counts.contains($0.kind) }
        for p in patches {
            let what = p.element.map { "element \($0)" } ?? "the canvas frame"
            added.append(
                RecoveryFinding(
                    kind: "healed", file: snapshot.name, offset: p.offset, bytes: p.bytes.count,
                    isInformational: true,
                    detail: "\(what) taken back from \(from), the copy the snapshot absorbed"))
        }
        let at = (findings.lastIndex { $0.file == snapshot.name }).map { $0 + 1 } ?? findings.count
        findings.insert(contentsOf: added, at: at)
        report.findings = findings
    }
}

/// A torn tail's bytes up to its last non-zero one (J-012): what a writer's cut (W-005) or a
/// compaction would drop, kept first when it is not zeros (P-042).
enum TornTail {
    static func nonZero(_ bytes: [UInt8], from offset: Int, bytes count: Int) -> Range<Int>? {
        guard offset >= 0, offset < bytes.count else { return nil }
        var end = min(bytes.count, offset + max(0, count))
        while end > offset, bytes[end - 1] == 0 { end -= 1 }
        return end > offset ? offset..<end : nil
    }
}
