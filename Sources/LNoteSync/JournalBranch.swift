import LNoteFormat
import LNoteStore

/// The changes one conflict copy of a page file holds that the page may lack (Y-013 .. Y-016).
struct CopyBranch {
    /// Changes to apply, in order.
    var changes: [PageChange] = []
    /// True when the fork could not be found: only elements are added (Y-016).
    var forkUnknown = false
    /// Frames or headers that could not be read: the copy goes to lost+found (Y-019).
    var unreadable: [String] = []
    /// A snapshot copy: its state, merged after every journal copy of the page (Y-015).
    var isSnapshot = false
    var snapshotState = PageState()
    /// Ids either side created after a fork found in the files (frames past the common prefix,
    /// or all of a journal when the salts differ): a snapshot of the other device lacks them
    /// because it never held them (Y-016).
    var forkBranchIDs = Set<UUIDBytes>()
}

enum JournalBranch {
    /// Findings that leave no valid frame unplaced: torn tails and reserved zeros (J-012),
    /// skipped ancillary frames, and a sequence gap (the frames after it are accepted and
    /// placed; the missing ones are not in this file).
    static let tailKinds: Set<ScanFindingKind> = [
        .shortHeader, .zeroFill, .lengthPastEnd, .badTailFrame, .unknownAncillaryType,
        .sequenceGap
    ]

    /// The decoded frames of a journal file (salvage walk, 4.2), or nil without a usable header.
    static func frames(
        fs: any FileSystem, directory: String, name: String
    )
        -> (salt: UInt64, frames: [(seq: UInt64, type: UInt8, body: ArraySlice<UInt8>)], damage: [String])?
    {
        guard let r = try? JournalFileReader.read(fs: fs, directory: directory, name: name, base: 0, mode: .salvage),
            let h = r.header, let scan = r.scan
        else { return nil }
        let frames = scan.acceptedFrames.map { f in (f.sequence, f.type, r.bytes[f.bodyRange]) }
        let damage = scan.findings.filter { !tailKinds.contains($0.kind) }.map { "\($0.kind.rawValue) at \($0.offset)" }
        return (h.salt, frames, damage + (r.headerDamage.map { ["header: \($0)"] } ?? []))
    }

    /// The branch of journal copy `copyName` against its original `originalName` (Y-013, Y-014).
    /// `snapshotGeneration` is the page's current one (Y-014: an absent original above it is unknown).
    static func branch(
        fs: any FileSystem, pages: String, copyName: String, originalName: String, base: UInt64,
        snapshotGeneration: UInt64
    ) -> CopyBranch {
        var out = CopyBranch()
        guard let copy = frames(fs: fs, directory: pages, name: copyName) else {
            out.unreadable.append("no usable journal header"); return out
        }
        out.unreadable += copy.damage
        var start = 0
        if let original = frames(fs: fs, directory: pages, name: originalName) {
            if original.salt == copy.salt {
                while start < copy.frames.count, start < original.frames.count,
                    copy.frames[start].seq == original.frames[start].seq,
                    copy.frames[start].type == original.frames[start].type,
                    copy.frames[start].body.elementsEqual(original.frames[start].body)
                { start += 1 }
            }
            for f in original.frames[min(start, original.frames.count)...] {
                out.forkBranchIDs.formUnion(createdIDs(f))
            }
            for f in copy.frames[start...] { out.forkBranchIDs.formUnion(createdIDs(f)) }
        } else if base < snapshotGeneration {
            out.forkUnknown = true  // the original was absorbed and removed (Y-016)
        }
        for f in copy.frames[start...] {
            guard f.type != FrameType.padding.rawValue, f.type < 128 else { continue }
            do {
                out.changes.append(try PageChangeCodec.decode(type: f.type, body: f.body, points: .eager))
            } catch {
                out.unreadable.append("frame \(f.seq): \(error)")
            }
        }
        return out
    }

    /// Ids an `elementAppend` or an `elementReplace` frame creates (bodies of other types are not decoded).
    static func createdIDs(_ f: (seq: UInt64, type: UInt8, body: ArraySlice<UInt8>)) -> [UUIDBytes] {
        guard f.type == FrameType.elementAppend.rawValue || f.type == FrameType.elementReplace.rawValue,
            let c = try? PageChangeCodec.decode(type: f.type, body: f.body, points: .deferred)
        else { return [] }
        switch c {
        case .append(let e): return [e.key]
        case .replace(_, let fragments): return fragments.map(\.key)
        default: return []
        }
    }

    /// Every change of an original journal of a page that has conflict copies: re-applied,
    /// rewritten, because a sync can pair one device's snapshot with the other's journal, which
    /// then hides that journal's frames below the snapshot's nextSequence (Y-013).
    static func whole(fs: any FileSystem, pages: String, name: String) -> CopyBranch {
        var out = CopyBranch()
        guard let j = frames(fs: fs, directory: pages, name: name) else { return out }
        for f in j.frames where f.type != FrameType.padding.rawValue && f.type < 128 {
            if let c = try? PageChangeCodec.decode(type: f.type, body: f.body, points: .eager) { out.changes.append(c) }
        }
        return out
    }

    /// Ids the journal `name` deletes or replaces (the page's history of erases, Y-015).
    static func erasedIDs(fs: any FileSystem, pages: String, name: String) -> Set<UUIDBytes> {
        guard let j = frames(fs: fs, directory: pages, name: name) else { return [] }
        var ids = Set<UUIDBytes>()
        for f in j.frames {
            guard f.type == FrameType.elementsDelete.rawValue || f.type == FrameType.elementReplace.rawValue,
                let c = try? PageChangeCodec.decode(type: f.type, body: f.body, points: .deferred)
            else { continue }
            switch c {
            case .delete(let list): ids.formUnion(list.keys)
            case .replace(let target, _): ids.insert(target.key)
            default: break
            }
        }
        return ids
    }
}
