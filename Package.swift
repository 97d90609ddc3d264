// swift-tools-version:6.2
// LNote: a journal-first write-ahead page engine. No package dependencies.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]
// What an app ships of the engine (the size suite of `lnote bench`, target 16-size). These are
// unsafe flags, which SwiftPM refused in a package used as a versioned dependency until tools
// 6.2; from 6.2 on an app can depend on this package by version with them.
// - Dead stripping: the linker of an app's release build (SwiftPM's `--gc-sections`, Xcode's
//   `-dead_strip`) drops the engine's functions the app never reaches. That takes one ELF
//   section per function on Linux (Mach-O has it already), and public functions not marked as
//   used (`-internalize-at-link`: without it swiftc keeps every public function of a module
//   alive, in case code outside the link calls it; a shared library still exports them).
// - The engine compiled for size; its hot paths (decoding, checking and encoding pages) are
//   marked `@_optimize(speed)` function by function, found with `perf` on the profile workloads.
let sections: [SwiftSetting] = [
    .unsafeFlags(["-Xfrontend", "-function-sections"], .when(platforms: [.linux])),
    .unsafeFlags(["-Xfrontend", "-internalize-at-link"], .when(configuration: .release))
]
let cSections: [CSetting] = [.unsafeFlags(["-ffunction-sections", "-fdata-sections"], .when(platforms: [.linux]))]
let small: [SwiftSetting] = [.unsafeFlags(["-Osize"], .when(configuration: .release))]

let package = Package(
    name: "LNote",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "LNoteStore", targets: ["LNoteStore"]),
        .library(name: "LNoteRender", targets: ["LNoteRender"]),
        .library(name: "LNoteSync", targets: ["LNoteSync"]),
        .library(name: "LNoteCheck", targets: ["LNoteCheck"]),
        .library(name: "LNoteSQLite", targets: ["LNoteSQLite"]),
        .executable(name: "lnote", targets: ["lnote"]),
        .executable(name: "lnote-bench", targets: ["lnote-bench"])
    ],
    targets: [
        // The C the format layer calls: hardware CRC-32C (SSE4.2 / ARMv8 CRC, chosen at run time),
        // the SIMD point codecs, the varint skim that checks a stroke's points without decoding
        // them, and the CPU feature checks they share.
        .target(
            name: "CLNoteFormat", path: "Sources/CLNoteFormat", cSettings: cSections,
            // Double.rounded and squareRoot call libm on Linux: linked here, declared once,
            // instead of through an import of Glibc in the Swift that rounds.
            linkerSettings: [.linkedLibrary("m", .when(platforms: [.linux]))]),
        // The C the engine calls: path system calls on a name's bytes (D-035), write-back pacing,
        // the JSON text check before Foundation decodes a document.
        .target(name: "CLNoteStore", path: "Sources/CLNoteStore", cSettings: cSections),
        // Bytes <-> values, pure: no file I/O. Mirrors Spec/format.md.
        .target(
            name: "LNoteFormat", dependencies: ["CLNoteFormat"], path: "Sources/LNoteFormat",
            swiftSettings: strict + sections + small),
        // The engine: file-system layer, journal, pages, documents.
        .target(
            name: "LNoteStore", dependencies: ["LNoteFormat", "CLNoteStore"], path: "Sources/LNoteStore",
            swiftSettings: strict + sections + small),
        // Page thumbnails as grayscale PNG (rasterizer, PNG encoder, DEFLATE): the covers an app
        // gets by setting `PageOptions.thumbnailRenderer = .grayscalePNG`. Apart from the engine
        // so an app that draws its own thumbnails does not ship it.
        .target(
            name: "LNoteRender", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteRender",
            swiftSettings: strict + sections),
        // The element-level merge of the conflict copies sync clients leave (Spec/sync.md): what
        // an app gets by opening documents with `PageOptions().withSyncMerge`. Apart from the
        // engine so an app that does not sync does not ship it.
        .target(
            name: "LNoteSync", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteSync",
            swiftSettings: strict + sections + small),
        // What fsck and the tools share and an app never links: a journal read alone (K-017), text
        // made safe for a terminal (K-034), what a path given to a tool names (D-034).
        .target(
            name: "LNoteDiagnostics", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteDiagnostics",
            swiftSettings: strict),
        // fsck as a library: checks, repairs (the sync merge among them), reports. The caller
        // passes the thumbnail renderer, so fsck links no rasterizer.
        .target(
            name: "LNoteCheck", dependencies: ["LNoteStore", "LNoteFormat", "LNoteSync", "LNoteDiagnostics"],
            path: "Sources/LNoteCheck", swiftSettings: strict),
        // Deterministic realistic handwriting (Hershey glyphs) for tests, demo and bench.
        .target(
            name: "LNoteHandwriting", dependencies: ["LNoteFormat"], path: "Sources/LNoteHandwriting",
            exclude: ["HERSHEY-ACKNOWLEDGEMENT.md"], swiftSettings: strict),
        // Simulated file system with crash states and fault injection, for tests and fuzzing; the
        // forwarding wrapper (ForwardingFileSystem) that test and bench file systems build on.
        .target(
            name: "LNoteSimulation", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteSimulation",
            swiftSettings: strict),
        // The system SQLite (libsqlite3-dev on Linux, the SDK's on Apple platforms): no package dependency.
        .systemLibrary(name: "CSQLite", path: "Sources/CSQLite"),
        // Level 2: export packages to an SQLite database and import them back (Spec/sqlite.md).
        // Only this module links SQLite; the engine never does.
        .target(
            name: "LNoteSQLite", dependencies: ["CSQLite", "LNoteStore", "LNoteFormat"], path: "Sources/LNoteSQLite",
            swiftSettings: strict),
        // What the two tools share: argument parsing, the Command protocol and exit codes,
        // output formatting, latency percentiles, terminal progress.
        .target(
            name: "LNoteToolSupport", dependencies: ["LNoteStore", "LNoteDiagnostics"], path: "Tools/LNoteToolSupport",
            swiftSettings: strict),
        // Conformance vectors: their generator and runner (Spec/vectors, Spec/README.md).
        .target(
            name: "LNoteConformance",
            dependencies: ["LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteDiagnostics"],
            path: "Sources/LNoteConformance",
            swiftSettings: strict),
        // A notes client written against the public API only (`import LNoteStore`), built by CI.
        .executableTarget(
            name: "notes-example", dependencies: ["LNoteStore", "LNoteRender", "LNoteSync"],
            path: "Tools/notes-example",
            swiftSettings: strict),
        // The command line that ships.
        .executableTarget(
            name: "lnote",
            dependencies: [
                "LNoteToolSupport", "LNoteCheck", "LNoteDiagnostics", "LNoteStore", "LNoteFormat",
                "LNoteHandwriting", "LNoteConformance", "LNoteSQLite", "LNoteRender", "LNoteSync"
            ],
            path: "Tools/lnote", swiftSettings: strict),
        // The benchmarks (`lnote bench` runs this executable), apart from the shipped tool.
        .executableTarget(
            name: "lnote-bench",
            dependencies: [
                "LNoteToolSupport", "LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteSQLite",
                "LNoteSimulation", "LNoteRender", "LNoteSync", "LNoteCheck"
            ],
            path: "Tools/lnote-bench", swiftSettings: strict),
        // What the test targets share: the test level (quick, ci, exhaustive) and temporary folders.
        .target(name: "LNoteTestSupport", path: "Tests/LNoteTestSupport", swiftSettings: strict),
        // LNoteSimulation: FuzzRegressionTests replays saved fuzz inputs through its FuzzHarness.
        .testTarget(
            name: "LNoteFormatTests",
            dependencies: [
                "LNoteFormat", "CLNoteFormat", "LNoteHandwriting", "LNoteSimulation",
                "LNoteTestSupport"
            ]),
        .testTarget(
            name: "LNoteStoreTests",
            dependencies: [
                "LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteSimulation",
                "LNoteRender", "LNoteTestSupport"
            ]),
        .testTarget(
            name: "LNoteRenderTests",
            dependencies: [
                "LNoteRender", "LNoteStore", "LNoteFormat", "LNoteHandwriting",
                "LNoteSimulation", "LNoteTestSupport"
            ]),
        .testTarget(
            name: "LNoteCheckTests",
            dependencies: [
                "LNoteCheck", "LNoteDiagnostics", "LNoteStore", "LNoteFormat",
                "LNoteHandwriting", "LNoteSimulation", "LNoteRender", "LNoteTestSupport"
            ]),
        .testTarget(
            name: "CrashTests",
            dependencies: [
                "LNoteSimulation", "LNoteStore", "LNoteFormat", "LNoteHandwriting",
                "LNoteTestSupport"
            ],
            exclude: ["README.md"]),
        .testTarget(
            name: "LNoteSQLiteTests",
            dependencies: [
                "lnote", "LNoteSQLite", "LNoteStore", "LNoteFormat", "LNoteHandwriting",
                "LNoteCheck", "LNoteTestSupport"
            ]),
        .testTarget(
            name: "ConformanceTests",
            dependencies: [
                "LNoteConformance", "LNoteSimulation", "LNoteCheck", "LNoteDiagnostics",
                "LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteTestSupport"
            ]),
        // The app-facing API, through `import LNoteStore` (and `import LNoteRender` for covers) only
        // (no @testable, no package access).
        .testTarget(
            name: "LNotePublicAPITests", dependencies: ["LNoteStore", "LNoteRender", "LNoteTestSupport"],
            exclude: ["public-api.txt"]),
        // Two devices, one notebook: conflict copies, merges, a real Syncthing pair (Spec/sync.md).
        .testTarget(
            name: "LNoteSyncTests",
            dependencies: [
                "lnote", "LNoteCheck", "LNoteStore", "LNoteFormat", "LNoteSimulation",
                "LNoteSync", "LNoteHandwriting", "LNoteTestSupport"
            ]),
        // Runs the built `lnote` and `lnote-bench` tools; depends on them so `swift test` builds them.
        .testTarget(
            name: "LNoteCLITests",
            dependencies: [
                "lnote", "lnote-bench", "LNoteStore", "LNoteFormat", "LNoteHandwriting",
                "LNoteSimulation", "LNoteDiagnostics", "LNoteTestSupport"
            ])
    ],
    swiftLanguageModes: [.v6]
)
