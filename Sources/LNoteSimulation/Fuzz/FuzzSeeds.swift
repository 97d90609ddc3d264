import LNoteFormat
import LNoteStore

/// Valid inputs each fuzz target's corpus starts from (written by the fuzz binary on first run).
enum FuzzSeeds {
    /// Five small elements: strokes with and without angles and transforms, and an image.
    static func elements() -> [Element] {
        func id(_ n: UInt64) -> UUIDBytes { UUIDBytes(storage: (0xA11C_E000_0000_0000 | n, 0x8000_0000_0000_0000 | n)) }
        func points(_ n: Int, angles: Bool) -> [Point] {
            (0..<n).map { (i: Int) -> Point in
                let x = Int32(100 + i * 3)
                let y = Int32(200 - i * i)
                let radius = UInt16(8 + i % 3)
                let pressure = UInt16(400 + i * 7)
                let azimuth: UInt16 = angles ? UInt16(1000 + i) : 0
                let altitude: UInt16 = angles ? 700 : 0
                return Point(
                    x: x, y: y, radius: radius, pressure: pressure, time: UInt32(i * 4),
                    azimuth: azimuth, altitude: altitude)
            }
        }
        return [
            .stroke(Stroke(id: id(1), ink: .pen, points: points(12, angles: false))),
            .stroke(
                Stroke(
                    id: id(2), ink: Ink(type: "pencil", red: 9, green: 8, blue: 7, alpha: 128, width: 30),
                    transform: .translation(3, 4), hasAngles: true, points: points(7, angles: true))),
            .image(ImageElement(id: id(3), assetID: id(33), x: -40, y: 50, width: 3000, height: 2000)),
            .stroke(Stroke(id: id(4), ink: .pen, points: points(1, angles: false))),
            .stroke(Stroke(id: id(5), ink: .pen, points: points(30, angles: false)))
        ]
    }

    static func changes() -> [PageChange] {
        let e = elements()
        return [
            .append(e[0]), .append(e[1]), .append(e[2]),
            .replace(target: e[0].key, fragments: [e[3], e[4]]),
            .transform([(e[1].key, .translation(1, 2)), (e[2].key, .identity)]),
            .delete([e[3].key]), .reorder(index: 1, ids: [e[2].key, e[1].key]),
            .metadata(.letter)
        ]
    }

    /// Journals: flag byte 4 (salvage, fix checksums) or 0, then a header and frames, including a
    /// padding frame and a torn tail.
    static func journals() -> [[UInt8]] {
        let id = FuzzHarness.packagePageID
        let header = JournalHeader(pageID: id, baseGeneration: 0, salt: 0x1234_5678_9ABC_DEF0, firstSequence: 1)
        var file = header.encoded()
        var sequence: UInt64 = 1
        for change in changes() {
            let (type, body) = PageChangeCodec.encode(change)
            FrameCodec.append(type: type.rawValue, sequence: sequence, body: body, salt: header.salt, to: &file)
            sequence += 1
        }
        var padded = file
        FrameCodec.append(
            type: FrameType.padding.rawValue, sequence: sequence, body: [0, 0, 0], salt: header.salt, to: &padded)
        let torn = Array(file.dropLast(5))
        return [[4] + file, [0] + file, [1] + padded, [2] + torn, [4] + Array(file.prefix(64))]
    }

    static func snapshots() -> [[UInt8]] {
        var state = PageState()
        for change in changes() { state.apply(change) }
        let file = SnapshotFile.encode(
            pageID: FuzzHarness.packagePageID, generation: 3, nextSequence: 9, state: state, salt: 77)
        let empty = SnapshotFile.encode(
            pageID: FuzzHarness.packagePageID, generation: 1, nextSequence: 1, state: PageState(), salt: 5)
        return [[4] + file, [0] + file, [2] + empty]
    }

    static func pointRuns() -> [[UInt8]] {
        elements().compactMap { element -> [UInt8]? in
            guard case let .stroke(s) = element else { return nil }
            var w = ByteWriter()
            PointCodec.encode(s.points, hasAngles: s.hasAngles, into: &w)
            let n = s.points.count - 1
            return [s.hasAngles ? 1 : 0, UInt8(n & 0xFF), UInt8(n >> 8)] + w.bytes
        }
    }

    static func documents() -> [[UInt8]] {
        let page = DocumentFile.PageEntry(
            id: FuzzHarness.packagePageID, metadata: .letter,
            created: "2026-11-29T23:03:18.123Z", modified: "2026-11-29T23:10:02.481Z",
            elementCount: 3)
        let document = DocumentFile(
            id: UUIDBytes(storage: (1, 2)), title: "Lecture notes", created: "2026-11-29T23:03:18.123Z",
            modified: "2026-11-29T23:10:02.481Z", pages: [page])
        return [document.encoded(), ManifestFile(document: document).encoded()]
    }

    static func mutationScripts() -> [[UInt8]] {
        [
            [], [0x00, 70, 0, 0xFF], [0x61, 100, 0, 0x80], [0xC0, 0, 0],
            [0x81, 64, 0] + Array(repeating: 0x11, count: 16) + [0xC1, 0, 0]
        ]
    }
}
