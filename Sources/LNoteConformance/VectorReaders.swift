import LNoteFormat
import LNoteStore
import LNoteDiagnostics

/// Reads one vector with the engine's readers and returns the `expect` object it gives, in the
/// shapes of Spec/README.md. Every function here is the implementation's answer, compared
/// against the manifest by `ConformanceRunner`.
enum VectorReaders {
    static func finding(_ kind: String, _ offset: Int?, _ bytes: Int?, torn: Bool) -> JSONValue {
        .object([
            ("kind", .string(kind)), ("offset", offset.map { JSONValue($0) } ?? .null),
            ("bytes", bytes.map { JSONValue($0) } ?? .null), ("tornTail", .bool(torn))
        ])
    }

    static func ids(_ state: PageState) -> JSONValue {
        .array(state.elements.map { .string($0.key.description) })
    }

    /// `canvas` and `contents` of a differential vector (Spec/README.md): the page's canvas
    /// size and every element's fields in z-order, points included.
    static func contents(_ state: PageState) -> [(String, JSONValue)] {
        func transform(_ t: Transform?) -> JSONValue {
            guard let t else { return .null }
            return .array([t.a, t.b, t.c, t.d, t.tx, t.ty].map { JSONValue(Int($0.bitPattern)) })
        }
        let elements: [JSONValue] = state.elements.map { e in
            switch e {
            case .stroke(let s):
                // E-007: a stroke whose points fail shows the points before the first failing one.
                let points = JSONValue.array(
                    s.withPoints { Array($0) }.map { p in
                        var v = [Int(p.x), Int(p.y), Int(p.radius), Int(p.pressure), Int(p.time)]
                        if s.hasAngles { v += [Int(p.azimuth), Int(p.altitude)] }
                        return .array(v.map { JSONValue($0) })
                    })
                let i = s.ink
                return .array([
                    .string("stroke"), .string(s.key.description), .string(i.type),
                    .array([i.red, i.green, i.blue, i.alpha].map { JSONValue(Int($0)) }), JSONValue(Int(i.width)),
                    transform(s.transform), .bool(s.hasAngles), points
                ])
            case .image(let m):
                // E-014: the page comes last, only for an image that has one.
                return .array(
                    [
                        .string("image"), .string(m.key.description), .string(m.assetKey.description),
                        JSONValue(Int(m.x)), JSONValue(Int(m.y)), JSONValue(Int(m.width)), JSONValue(Int(m.height)),
                        transform(m.transform)
                    ] + (m.page.map { [JSONValue(Int($0))] } ?? []))
            }
        }
        return [
            ("canvas", .array([JSONValue(Int(state.metadata.width)), JSONValue(Int(state.metadata.height))])),
            ("contents", .array(elements))
        ]
    }

    /// A journal read alone (section 4, `StandaloneJournalReader`): header (J-002, J-023, J-025), the
    /// frame walk (J-010 ... J-022), then each accepted frame's body decoded and applied to an
    /// empty page (J-026, section 6.4); frames with a sequence below `skipBelow` are counted,
    /// not applied (P-004).
    static func journal(
        directory: String, name: String, mode: ReplayMode, skipBelow: UInt64,
        fs: any FileSystem, contents: Bool = false
    ) throws -> JSONValue {
        let r = try StandaloneJournalReader.read(
            fs: fs, directory: directory, name: name, mode: mode, skipBelow: skipBelow)
        return .object(
            [
                ("refused", .bool(r.refused)),
                ("headerValid", .bool(r.headerValid)),
                (
                    "frames",
                    .array(
                        r.frames.map {
                            .object([
                                ("sequence", JSONValue($0.sequence)), ("type", JSONValue(Int($0.type))),
                                ("offset", JSONValue($0.offset))
                            ])
                        })
                ),
                ("validEnd", JSONValue(r.validEnd)),
                ("findings", .array(r.findings.map { finding($0.kind, $0.offset, $0.bytes, torn: $0.isTornTail) })),
                ("elements", ids(r.state))
            ] + (contents && !r.refused ? Self.contents(r.state) : []))
    }

    /// A snapshot read alone (section 7).
    static func snapshot(_ bytes: [UInt8], mode: ReplayMode, contents: Bool = false) -> JSONValue {
        let d = SnapshotFile.decode(bytes, name: "snapshot", expectedPage: nil, mode: mode)
        let refused = mode == .strict && d.unusable
        let headerValid = bytes.withUnsafeBytes { SnapshotHeader.decode($0).header != nil }
        let findings = d.findings.filter { $0.kind != "refused" }
            .map { finding($0.kind, $0.offset, $0.bytes, torn: $0.isTornTail) }
        let usable = !d.unusable
        return .object(
            [
                ("refused", .bool(refused)),
                ("headerValid", .bool(headerValid)),
                ("generation", usable ? d.header.map { JSONValue($0.generation) } ?? .null : .null),
                ("nextSequence", usable ? d.header.map { JSONValue($0.nextSequence) } ?? .null : .null),
                ("elements", usable ? ids(d.state) : .array([])),
                ("findings", .array(findings))
            ] + (contents && usable ? Self.contents(d.state) : []))
    }

    /// The point codec (6.2) over the whole file: trailing bytes are an error.
    static func points(_ bytes: [UInt8], count: Int, hasAngles: Bool) -> JSONValue {
        bytes.withUnsafeBytes { raw in
            var r = ByteReader(raw)
            do {
                let points = try PointCodec.decode(count: count, hasAngles: hasAngles, from: &r)
                guard r.isAtEnd else {
                    return .object([("error", true), ("reason", .string("trailingBytes"))])
                }
                return .object([
                    ("error", false),
                    (
                        "points",
                        .array(
                            points.map { p in
                                var v: [JSONValue] = [
                                    JSONValue(Int(p.x)), JSONValue(Int(p.y)), JSONValue(Int(p.radius)),
                                    JSONValue(Int(p.pressure)), JSONValue(Int(p.time))
                                ]
                                if hasAngles { v += [JSONValue(Int(p.azimuth)), JSONValue(Int(p.altitude))] }
                                return .array(v)
                            })
                    )
                ])
            } catch {
                return .object([("error", true), ("reason", .string("\(error)"))])
            }
        }
    }

    /// A page recovered from a folder of page files (section 5) by `PageRecovery`, the code
    /// that opens pages. The page is the one the folder's file names name (the smallest id if
    /// several).
    static func page(
        directory: String, mode: ReplayMode, fs: any FileSystem, contents: Bool = false
    ) throws -> JSONValue {
        let names = try fs.list(directory)
        let pages = names.compactMap { name -> UUIDBytes? in
            switch PageFileNames.parseAnyCase(name) {  // P-024
            case .snapshot(let id)?, .snapshotTemp(let id)?, .journal(let id, _)?: return id
            case nil: return nil
            }
        }
        guard let pageID = pages.min() else {
            return .object([
                ("refused", false), ("elements", []), ("nextSequence", 1), ("generation", 0),
                ("findingKinds", [])
            ])
        }
        do {
            let r = try PageRecovery.recover(fs: fs, directory: directory, pageID: pageID, mode: mode)
            let kinds = Set(r.report.findings.filter { !$0.isInformational }.map(\.kind)).sorted()
            return .object(
                [
                    ("refused", false), ("elements", ids(r.state)), ("nextSequence", JSONValue(r.nextSequence)),
                    ("generation", JSONValue(r.generation)), ("findingKinds", .array(kinds.map { .string($0) }))
                ]
                    + (contents ? Self.contents(r.state) : []))
        } catch let e as LNoteError where e.code == .corrupt {
            return .object([("refused", true), ("elements", []), ("reason", .string(e.description))])
        }
    }

    /// The pages `document.json` lists, in order, each recovered in salvage mode (section 5).
    static func packagePages(_ root: String, fs: any FileSystem) throws -> JSONValue {
        let layout = PackageLayout(root: root)
        guard let bytes = try? fs.readFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax),
            let document = try? DocumentFile.decode(bytes)
        else { return .array([]) }
        var pages: [JSONValue] = []
        // A page the engine refuses to read (K-030: pages/, or one of the page's files, of the
        // wrong kind) shows no elements, as fsck's report gives it (state `refused`).
        let pagesFolder = (try? fs.kind(layout.pagesDirectory)).map { $0 == .directory } ?? true
        for entry in document.pages {
            var elements: JSONValue = .array([])
            if pagesFolder {
                do {
                    elements = ids(
                        try PageRecovery.recover(
                            fs: fs, directory: layout.pagesDirectory, pageID: entry.id, mode: .salvage
                        ).state)
                } catch let error as LNoteError where error.code == .invalidPath {}
            }
            pages.append(.object([("id", .string(entry.id.description)), ("elements", elements)]))
        }
        return .array(pages)
    }
}
