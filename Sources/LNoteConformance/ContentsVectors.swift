import LNoteFormat
import LNoteStore

/// Vectors that state what the page holds, not only its ids (`canvas` and `contents`,
/// Spec/README.md), and the two snapshot rules the differential vectors found the readers
/// reading differently: the order of a snapshot's findings (J-029 as for journals) and
/// `missingMetadata` beside a salvaged header (S-010).
enum ContentsVectors {
    typealias F = Expect

    /// `canvas` and `contents` of a page holding `elements` on a canvas of `metadata`, as built.
    static func contents(_ elements: [Element], metadata: PageMetadata = .letter) -> [(String, JSONValue)] {
        VectorReaders.contents(PageState(metadata: metadata, elements: elements))
    }

    static func add(to s: inout ConformanceSuite) {
        do {  // Every field of both element kinds, angles, transforms and the canvas.
            let asset = VectorFixtures.uuid("a55e7000-0000-4000-8000-000000000002")
            let metadata = PageMetadata(width: 5950, height: 8420)
            let elements = [
                VectorFixtures.stroke(
                    1, transform: Transform(a: 0.5, b: 0.25, c: -0.25, d: 2, tx: 10.5, ty: -3),
                    angles: true),
                VectorFixtures.stroke(2),
                VectorFixtures.image(3, asset: asset, transform: Transform.translation(-7, 9))
            ]
            let (b, _) = SnapshotBuilder.build(generation: 2, nextSequence: 10, elements: elements, metadata: metadata)
            let name = "ok-snapshot-contents.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-002", "E-025", "G-002", "E-010", "E-012"],
                expect: SnapshotVectors.expect(generation: 2, nextSequence: 10, elements: [1, 2, 3], findings: [])
                    + contents(elements, metadata: metadata))
        }
        do {  // E-014: images showing pages of one multi-page asset, with and without a transform.
            let pdf = VectorFixtures.uuid("ba7816bf-8f01-8fea-8141-40de5dae2223")
            let elements = [
                VectorFixtures.image(1, asset: pdf, page: 0),
                VectorFixtures.image(2, asset: pdf, transform: Transform.translation(-7, 9), page: 913),
                VectorFixtures.image(3, asset: pdf, page: UInt32.max),
                VectorFixtures.image(4, asset: pdf)
            ]
            let (b, _) = SnapshotBuilder.build(generation: 1, nextSequence: 6, elements: elements)
            let name = "ok-snapshot-image-pages.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["E-014", "E-012", "D-043", "S-002"],
                expect: SnapshotVectors.expect(generation: 1, nextSequence: 6, elements: [1, 2, 3, 4], findings: [])
                    + contents(elements))
        }
        do {  // E-007: the stroke shows the points before the first failing one (point 2's time goes back).
            let points = [
                Point(x: 10, y: 20, radius: 11, pressure: 400, time: 0),
                Point(x: 17, y: 23, radius: 12, pressure: 450, time: 4),
                Point(x: 25, y: 29, radius: 13, pressure: 500, time: 2),
                Point(x: 30, y: 31, radius: 13, pressure: 500, time: 9)
            ]
            let cut = Stroke(id: VectorFixtures.id(2), ink: .pen, transform: nil, hasAngles: false, points: points)
            let shown = Stroke(
                id: cut.key, ink: .pen, transform: nil, hasAngles: false, points: Array(points.prefix(2)))
            var b = FileBuilder.journal()
            let one = b.append(1, sequence: 1)
            let bad = b.change(.append(.stroke(cut)), sequence: 2)
            let name = "bad-journal-stroke-points-cut.journal"
            s.add(name, b.bytes)
            s.entry(
                name, "journal", .salvage, rules: ["E-007", "E-003"],
                expect: F.journal(
                    frames: [one, bad], validEnd: b.count,
                    findings: [F.finding("badPoints", bad.offset, bad.size)], elements: [1, 2])
                    + contents([VectorFixtures.stroke(1), .stroke(shown)]))
        }
        do {  // S-009, S-010: a header S-006 salvages does not explain a missing metadata frame.
            let (built, _) = SnapshotBuilder.build(generation: 1, nextSequence: 3, elements: [], elementCount: 0)
            var b = FileBuilder(header: Array(built.bytes.prefix(64)), salt: VectorFixtures.snapshotSalt)
            b.flip(62, 0x04)
            let name = "bad-snapshot-salvaged-header-no-metadata.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-009", "S-010", "S-006"],
                expect: SnapshotVectors.expect(
                    headerValid: false, generation: 1, nextSequence: 3, elements: [],
                    findings: [F.finding("badHeader", 0, 64), F.finding("missingMetadata", 64, 0)]))
        }
        do {  // Findings in file order (J-029, Spec/README.md): a bad body before a later bad CRC.
            let header = SnapshotHeader(
                pageID: VectorFixtures.page, generation: 1, salt: VectorFixtures.snapshotSalt,
                nextSequence: 6, elementCount: 4)
            var b = FileBuilder(header: header.encoded(), salt: VectorFixtures.snapshotSalt)
            b.change(.metadata(.letter), sequence: 1)
            let unknownKind = b.frame(
                type: FrameType.elementAppend.rawValue, sequence: 2,
                body: [9] + VectorFixtures.id(1).bytes)  // element kind 9 (E-010)
            b.append(2, sequence: 3)
            let damaged = b.append(3, sequence: 4)
            b.append(4, sequence: 5)
            b.flip(damaged.end - 1, 0x01)
            let name = "bad-snapshot-findings-in-file-order.content"
            s.add(name, b.bytes)
            s.entry(
                name, "snapshot", .salvage, rules: ["S-003", "J-029", "J-026", "J-015"],
                expect: SnapshotVectors.expect(
                    generation: 1, nextSequence: 6, elements: [2, 4],
                    findings: [
                        F.finding("badBody", unknownKind.offset, unknownKind.size),
                        F.finding("badCRC", damaged.offset, damaged.size),
                        F.finding("missingElements", b.count, 0)
                    ]))
        }
    }
}
