import LNoteFormat
import LNoteStore

/// Reads one vector with the engine's readers and returns the `expect` object it gives, in the
/// shapes of Spec/README.md. Every function here is the implementation's answer, compared
/// against the manifest by `ConformanceRunner`.
enum VectorReaders {
    static func finding(_ kind: String, _ offset: Int?, _ bytes: Int?, torn: Bool) -> JSONValue {
        .object([("kind", .string(kind)), ("offset", offset.map { JSONValue($0) } ?? .null),
                 ("bytes", bytes.map { JSONValue($0) } ?? .null), ("tornTail", .bool(torn))])
    }

    static func ids(_ state: PageState) -> JSONValue {
        .array(state.elements.map { .string($0.id.description) })
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
                let points = JSONValue.array(s.withPoints { Array($0) }.map { p in
                    var v = [Int(p.x), Int(p.y), Int(p.radius), Int(p.pressure), Int(p.time)]
                    if s.hasAngles { v += [Int(p.azimuth), Int(p.altitude)] }
                    return .array(v.map { JSONValue($0) })
                })
                let i = s.ink
                return .array([.string("stroke"), .string(s.id.description), .string(i.type),
                               .array([i.red, i.green, i.blue, i.alpha].map { JSONValue(Int($0)) }), JSONValue(Int(i.width)),
                               transform(s.transform), .bool(s.hasAngles), points])
            case .image(let m):
                return .array([.string("image"), .string(m.id.description), .string(m.assetID.description),
                               JSONValue(Int(m.x)), JSONValue(Int(m.y)), JSONValue(Int(m.width)), JSONValue(Int(m.height)),
                               transform(m.transform)])
            }
        }
        return [("canvas", .array([JSONValue(Int(state.metadata.width)), JSONValue(Int(state.metadata.height))])),
                ("contents", .array(elements))]
    }

    /// A journal read alone (section 4): header (J-002, J-023, J-025), the frame walk
    /// (J-010 ... J-022), then each accepted frame's body decoded and applied to an empty page
    /// (J-026, section 6.4); frames with a sequence below `skipBelow` are counted, not applied
    /// (P-004).
    static func journal(directory: String, name: String, mode: ReplayMode, skipBelow: UInt64,
                        fs: any FileSystem, contents: Bool = false) throws -> JSONValue {
        let r = try JournalFileReader.read(fs: fs, directory: directory, name: name, base: 0, mode: mode)
        // (offset, order within the file, finding): sorted by offset, ties in report order.
        var findings: [(Int, Int, JSONValue)] = []
        var refused = false
        if r.isTornCreation {
            findings.append((0, 0, finding(TornCreation.kind, 0, r.fileSize, torn: true)))  // J-028 (the file size, P-020)
        } else if r.headerDamage != nil {
            findings.append((0, 0, finding("badHeader", 0, min(r.fileSize, FormatLimits.journalHeaderBytes), torn: false)))
            if mode == .strict { refused = true }
        }
        var frames: [JSONValue] = []
        var page = PageState()
        var validEnd = 0
        if let scan = r.scan, !refused {
            validEnd = scan.validEnd
            for f in scan.findings {
                findings.append((f.offset, findings.count, finding(f.kind.rawValue, f.offset, f.bytes, torn: f.isTornTail)))
            }
            if scan.refused != nil { refused = true }
            r.bytes.withUnsafeBytes { raw in
                for frame in scan.frames {
                    frames.append(.object([("sequence", JSONValue(frame.sequence)), ("type", JSONValue(Int(frame.type))),
                                           ("offset", JSONValue(frame.offset))]))
                    if frame.sequence < skipBelow { continue }
                    let body = UnsafeRawBufferPointer(rebasing: raw[frame.bodyRange])
                    let size = frame.endOffset - frame.offset
                    do {
                        page.apply(try PageChangeCodec.decode(type: frame.type, body: body,
                                                              baseOffset: frame.bodyRange.lowerBound))
                    } catch {
                        // E-007: in salvage mode a stroke whose points fail keeps the points before.
                        if mode == .salvage, let kept = try? PageChangeCodec.decode(type: frame.type, body: r.bytes[frame.bodyRange],
                                                                                    points: .deferred) {
                            page.apply(kept)
                            findings.append((frame.offset, findings.count, finding("badPoints", frame.offset, size, torn: false)))
                            continue
                        }
                        findings.append((frame.offset, findings.count, finding("badBody", frame.offset, size, torn: false)))
                        if mode == .strict { refused = true }
                        if mode == .prefix {  // J-021, J-030: nothing after the stop is reported
                            findings.removeAll { $0.0 > frame.offset }
                            break
                        }
                    }
                }
            }
        }
        findings.sort { ($0.0, $0.1) < ($1.0, $1.1) }
        return .object([
            ("refused", .bool(refused)),
            ("headerValid", .bool(r.headerDamage == nil)),
            ("frames", .array(refused ? [] : frames)),
            ("validEnd", JSONValue(validEnd)),
            ("findings", .array(findings.map(\.2))),
            ("elements", refused ? .array([]) : ids(page)),
        ] + (contents && !refused ? Self.contents(page) : []))
    }

    /// A snapshot read alone (section 7).
    static func snapshot(_ bytes: [UInt8], mode: ReplayMode, contents: Bool = false) -> JSONValue {
        let d = SnapshotFile.decode(bytes, name: "snapshot", expectedPage: nil, mode: mode)
        let refused = mode == .strict && d.unusable
        let headerValid = bytes.withUnsafeBytes { SnapshotHeader.decode($0).header != nil }
        let findings = d.findings.filter { $0.kind != "refused" }
            .map { finding($0.kind, $0.offset, $0.bytes, torn: $0.isTornTail) }
        let usable = !d.unusable
        return .object([
            ("refused", .bool(refused)),
            ("headerValid", .bool(headerValid)),
            ("generation", usable ? d.header.map { JSONValue($0.generation) } ?? .null : .null),
            ("nextSequence", usable ? d.header.map { JSONValue($0.nextSequence) } ?? .null : .null),
            ("elements", usable ? ids(d.state) : .array([])),
            ("findings", .array(findings)),
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
                return .object([("error", false), ("points", .array(points.map { p in
                    var v: [JSONValue] = [JSONValue(Int(p.x)), JSONValue(Int(p.y)), JSONValue(Int(p.radius)),
                                          JSONValue(Int(p.pressure)), JSONValue(Int(p.time))]
                    if hasAngles { v += [JSONValue(Int(p.azimuth)), JSONValue(Int(p.altitude))] }
                    return .array(v)
                }))])
            } catch {
                return .object([("error", true), ("reason", .string("\(error)"))])
            }
        }
    }

    /// A page recovered from a folder of page files (section 5) by `PageRecovery`, the code
    /// that opens pages. The page is the one the folder's file names name (the smallest id if
    /// several).
    static func page(directory: String, mode: ReplayMode, fs: any FileSystem, contents: Bool = false) throws -> JSONValue {
        let names = try fs.list(directory)
        let pages = names.compactMap { name -> UUIDBytes? in
            switch PageFileNames.parse(name) {
            case .snapshot(let id)?, .snapshotTemp(let id)?, .journal(let id, _)?: return id
            case nil: return nil
            }
        }
        guard let pageID = pages.min() else {
            return .object([("refused", false), ("elements", []), ("nextSequence", 1), ("generation", 0),
                            ("findingKinds", [])])
        }
        do {
            let r = try PageRecovery.recover(fs: fs, directory: directory, pageID: pageID, mode: mode)
            let kinds = Set(r.report.findings.filter { !$0.isInformational }.map(\.kind)).sorted()
            return .object([("refused", false), ("elements", ids(r.state)), ("nextSequence", JSONValue(r.nextSequence)),
                            ("generation", JSONValue(r.generation)), ("findingKinds", .array(kinds.map { .string($0) }))]
                           + (contents ? Self.contents(r.state) : []))
        } catch let e as LNoteError where e.code == .corrupt {
            return .object([("refused", true), ("elements", []), ("reason", .string(e.description))])
        }
    }

    /// The pages `document.json` lists, in order, each recovered in salvage mode (section 5).
    static func packagePages(_ root: String, fs: any FileSystem) throws -> JSONValue {
        let layout = PackageLayout(root: root)
        guard let bytes = try? fs.readFile(layout.documentFile, limit: FormatLimits.documentJSONBytesMax),
              let document = try? DocumentFile.decode(bytes) else { return .array([]) }
        var pages: [JSONValue] = []
        // A page the engine refuses to read (K-030: pages/, or one of the page's files, of the
        // wrong kind) shows no elements, as fsck's report gives it (state `refused`).
        let pagesFolder = (try? fs.kind(layout.pagesDirectory)).map { $0 == .directory } ?? true
        for entry in document.pages {
            var elements: JSONValue = .array([])
            if pagesFolder {
                do {
                    elements = ids(try PageRecovery.recover(fs: fs, directory: layout.pagesDirectory, pageID: entry.id, mode: .salvage).state)
                } catch let error as LNoteError where error.code == .invalidPath {}
            }
            pages.append(.object([("id", .string(entry.id.description)), ("elements", elements)]))
        }
        return .array(pages)
    }
}
