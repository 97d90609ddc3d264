import Foundation
import LNoteStore
import LNoteToolSupport

/// The stripped size an app gains by linking LNoteStore: a small client that
/// creates a document, opens a page and closes, against a hello world, both compiled with
/// `swiftc -O` against the modules and objects of the build this bench runs from (so run a
/// release build), linked as SwiftPM links a release executable on Linux (`--gc-sections`,
/// its dead stripping; Xcode's `-dead_strip` is the same on Apple platforms), then stripped.
/// The engine's modules are compiled with `-function-sections` (Package.swift) so that dead
/// stripping can drop what an app does not reach; a second row links every object whole, as
/// a link without dead stripping would. Skipped, with a note, where swiftc, strip or the build's
/// objects are missing. A second client, the same with the engine's covers
/// (`PageOptions.thumbnailRenderer = .grayscalePNG`), also links LNoteRender: what an app that
/// lets the engine draw its covers ships (a row of its own; the target is on the first). A third,
/// with the sync merge (`PageOptions.withSyncMerge`), also links LNoteSync: what an app whose
/// library a sync client shares ships.
enum SizeSuite {
    static let hello = """
        @main struct Hello { static func main() async throws { print("hello, \\(CommandLine.arguments.count)") } }
        """
    static let client = """
        import LNoteStore
        @main struct Client {
            static func main() async throws {
                let library = NoteLibrary(folder: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/lnote-size")
                let document = try await library.createDocument(title: "size")
                let page = try await document.page(at: 0)
                print("hello, \\(await page.elementCount)")
                try await document.flush()
                try await document.close()
            }
        }
        """
    static let coversClient = """
        import LNoteRender
        import LNoteStore
        @main struct Client {
            static func main() async throws {
                let library = NoteLibrary(folder: CommandLine.arguments.count > 1 ? CommandLine.arguments[1] : "/tmp/lnote-size")
                let document = try await library.createDocument(title: "size", pageOptions: PageOptions().withCovers)
                let page = try await document.page(at: 0)
                print("hello, \\(await page.elementCount)")
                try await document.flush()
                try await document.close()
            }
        }
        """

    /// How SwiftPM dead-strips a release executable it links (ProductBuildDescription).
    static let deadStrip = PlatformDefaults.deadStripLinkerFlags

    static let syncClient =
        coversClient
        .replacingOccurrences(of: "import LNoteRender\n", with: "")
        .replacingOccurrences(of: "import LNoteStore\n", with: "import LNoteStore\nimport LNoteSync\n")
        .replacingOccurrences(of: "PageOptions().withCovers", with: "PageOptions().withSyncMerge")

    /// The objects of `module` in the build folder `build`: for a Swift module those of the
    /// sources it was last built from (its `sources` list), so the objects of files since moved
    /// or deleted, which the build leaves behind, are not linked; for C, every object.
    static func objects(_ module: String, build: String) throws -> [String] {
        let fs = POSIXFileSystem.shared
        let dir = joinPath(build, "\(module).build")
        if let list = try? fs.readFile(joinPath(dir, "sources")), let text = String(validating: list, as: UTF8.self) {
            return text.split(separator: "\n").map { joinPath(dir, "\($0.split(separator: "/").last ?? "").o") }
        }
        return try fs.list(dir).filter { $0.hasSuffix(".o") }.map { joinPath(dir, $0) }
    }

    static func run(_ ctx: BenchContext) async throws -> BenchSuiteResult {
        var r = BenchSuiteResult(name: "size", title: BenchSuites.all.first { $0.name == "size" }?.title ?? "size")
        let build = parentDirectory(of: executablePath())
        let fs = POSIXFileSystem.shared
        guard let swiftc = which("swiftc"), let strip = which("strip"),
            (try? fs.kind(joinPath(build, "Modules/LNoteStore.swiftmodule"))) != nil
        else {
            r.notes.append("skipped: swiftc, strip or \(build)/Modules/LNoteStore.swiftmodule not found")
            return r
        }
        try BenchPages.makeDirectories(ctx.directory)
        let objects = try ["LNoteStore", "LNoteFormat", "CLNoteStore", "CLNoteFormat"].flatMap {
            try Self.objects($0, build: build)
        }
        let flags =
            ["-I", joinPath(build, "Modules")]
            + ["CLNoteFormat", "CLNoteStore"].flatMap {
                ["-Xcc", "-fmodule-map-file=\(joinPath(build, "\($0).build/module.modulemap"))"]
            }
        let withRender = (try? fs.kind(joinPath(build, "Modules/LNoteRender.swiftmodule"))) != nil
        var sizes: [String: Int] = [:]
        var builds = [
            ("hello", hello, deadStrip), ("client", client, flags + objects + deadStrip),
            ("whole", client, flags + objects)
        ]
        if withRender {
            builds.append(
                ("covers", coversClient, flags + objects + deadStrip + (try Self.objects("LNoteRender", build: build))))
        }
        if (try? fs.kind(joinPath(build, "Modules/LNoteSync.swiftmodule"))) != nil {
            builds.append(
                ("sync", syncClient, flags + objects + deadStrip + (try Self.objects("LNoteSync", build: build))))
        }
        // The example notes client (every public call an app makes, covers and sync merge
        // included), from the package's sources when the build folder is inside them.
        let example = try? fs.readFile(joinPath(packageRoot(of: build), "Tools/notes-example/main.swift"))
        if withRender, let example, let text = String(validating: example, as: UTF8.self) {
            builds.append(
                (
                    "example", text,
                    flags + objects + deadStrip + (try Self.objects("LNoteRender", build: build))
                        + (try Self.objects("LNoteSync", build: build))
                ))
        }
        for (name, source, extra) in builds {
            let src = ctx.path(name == "example" ? "main.swift" : "\(name).swift")
            let exe = ctx.path(name), stripped = ctx.path("\(name).stripped")
            try fs.writeFileAtomically(src, Array(source.utf8), durability: .none)
            let mode = name == "example" ? [] : ["-parse-as-library"]  // main.swift: top-level code
            let compiled = try BenchSystem.run(swiftc, ["-O"] + mode + [src, "-o", exe] + extra)
            guard compiled.status == 0, try BenchSystem.run(strip, ["-o", stripped, exe]).status == 0,
                case .file(let size)? = try fs.kind(stripped)
            else {
                r.notes.append("skipped: compiling or stripping the \(name) failed")
                return r
            }
            sizes[name] = Int(size)
        }
        let gain = (sizes["client"] ?? 0) - (sizes["hello"] ?? 0)
        r.rows.append(
            BenchRow(
                design: "hello world, stripped", setting: "swiftc -O, dead stripped",
                value: Double(sizes["hello"] ?? 0), unit: "B"))
        r.rows.append(
            BenchRow(
                design: "client linking LNoteStore, stripped", setting: "swiftc -O, dead stripped",
                value: Double(sizes["client"] ?? 0), unit: "B"))
        r.rows.append(
            BenchRow(design: "size LNoteStore adds", setting: "client - hello", value: Double(gain), unit: "B"))
        if let whole = sizes["whole"] {
            r.rows.append(
                BenchRow(
                    design: "size LNoteStore adds, every object linked whole (no dead stripping)",
                    setting: "client - hello",
                    value: Double(whole - (sizes["hello"] ?? 0)), unit: "B"))
        }
        r.rows += sectionRows(client: ctx.path("client.stripped"), hello: ctx.path("hello.stripped"), gain: gain)
        if let covers = sizes["covers"] {
            r.rows.append(
                BenchRow(
                    design: "size LNoteStore + LNoteRender add", setting: "covers client - hello",
                    value: Double(covers - (sizes["hello"] ?? 0)), unit: "B"))
        }
        if let example = sizes["example"] {
            r.rows.append(
                BenchRow(
                    design: "size an app like Tools/notes-example gains (LNoteStore, LNoteRender, LNoteSync)",
                    setting: "example - hello", value: Double(example - (sizes["hello"] ?? 0)), unit: "B"))
        }
        if let sync = sizes["sync"] {
            r.rows.append(
                BenchRow(
                    design: "size LNoteStore + LNoteSync add", setting: "sync client - hello",
                    value: Double(sync - (sizes["hello"] ?? 0)), unit: "B"))
        }
        r.targets.append(
            BenchTarget(
                id: "16-size", claim: "stripped bytes an app gains by linking LNoteStore",
                measured: Double(gain), limit: 1_000_000,
                detail:
                    "\(gain) B (\(fixed(Double(gain) / 1_048_576, 2)) MiB): \(sizes["client"] ?? 0) B client vs \(sizes["hello"] ?? 0) B hello world"
            ))
        r.notes.append(
            "client: NoteLibrary, createDocument, page(at:), flush, close; linked with the objects of LNoteStore, LNoteFormat, CLNoteStore and CLNoteFormat from \(build) and \(deadStrip.joined(separator: " ")) (SwiftPM's release link; hello world likewise); the Swift runtime and Foundation are shared libraries on Linux, not counted; the sync merge (LNoteSync) and the covers (LNoteRender) are not in it"
        )
        r.notes.append(
            "covers client: the same with PageOptions().withCovers (the engine draws covers: LNoteRender's rasterizer, PNG encoder and DEFLATE), also linked with LNoteRender's objects"
        )
        r.notes.append(
            "sync client: the same with PageOptions().withSyncMerge (conflict copies merged on open, Spec/sync.md), also linked with LNoteSync's objects"
        )
        r.notes.append(
            "notes-example: Tools/notes-example/main.swift (documents, pages, strokes, erase, move, reorder, images, undo, observation, listing, duplicate, delete, covers, sync merge) linked the same way: what an app that calls all of that ships"
        )
        return r
    }

    /// Where the client's bytes beyond hello world's are, by ELF section: code, unwind tables
    /// (an ELF cost: `.eh_frame` holds a record for every function; Mach-O's compact unwind is
    /// smaller), dynamic relocations and the rest. Information only; the target is on the total.
    static func sectionRows(client: String, hello: String, gain total: Int) -> [BenchRow] {
        let fs = POSIXFileSystem.shared
        guard let c = (try? fs.readFile(client)).flatMap(ELFSections.sizes(of:)),
            let h = (try? fs.readFile(hello)).flatMap(ELFSections.sizes(of:))
        else { return [] }
        let groups: [(String, [String])] = [
            ("code (.text)", [".text"]),
            ("unwind tables (.eh_frame, .eh_frame_hdr)", [".eh_frame", ".eh_frame_hdr"]),
            ("dynamic relocations (.rela.dyn, .rela.plt)", [".rela.dyn", ".rela.plt"]),
            (
                "Swift metadata and reflection (swift5_*)",
                Array(Set(c.keys).union(h.keys).filter { $0.hasPrefix("swift5_") })
            )
        ]
        var rows: [BenchRow] = [], listed = 0
        for (name, sections) in groups {
            let gain = sections.reduce(0) { $0 + (c[$1] ?? 0) - (h[$1] ?? 0) }
            listed += gain
            rows.append(
                BenchRow(design: "  of which \(name)", setting: "client - hello", value: Double(gain), unit: "B"))
        }
        rows.append(
            BenchRow(
                design: "  of which the rest (read-only data, symbols, headers, padding)", setting: "client - hello",
                value: Double(total - listed), unit: "B"))
        return rows
    }

    /// The package folder of build folder `build` (`<package>/.build/<triple>/release`).
    static func packageRoot(of build: String) -> String {
        parentDirectory(of: parentDirectory(of: parentDirectory(of: build)))
    }

    /// The first executable `name` on PATH.
    static func which(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for dir in path.split(separator: ":") {
            let p = joinPath(String(dir), name)
            if ToolSystem.isExecutable(p) { return p }
        }
        return nil
    }
}
