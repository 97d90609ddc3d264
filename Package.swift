// swift-tools-version:6.0
// LNote: a journal-first write-ahead page engine. No package dependencies.
import PackageDescription

let strict: [SwiftSetting] = [.enableUpcomingFeature("ExistentialAny")]

let package = Package(
    name: "LNote",
    platforms: [.macOS(.v15), .iOS(.v18)],
    products: [
        .library(name: "LNoteStore", targets: ["LNoteStore"]),
        .library(name: "LNoteCheck", targets: ["LNoteCheck"]),
        .executable(name: "lnote", targets: ["lnote"]),
    ],
    targets: [
        // Hardware CRC-32C (SSE4.2 / ARMv8 CRC), chosen at run time. Nothing else.
        .target(name: "CCRC32C", path: "Sources/CCRC32C"),
        // Bytes <-> values, pure: no file I/O. Mirrors Spec/format.md.
        .target(name: "LNoteFormat", dependencies: ["CCRC32C"], path: "Sources/LNoteFormat",
                swiftSettings: strict),
        // The engine: file-system layer, journal, pages, documents.
        .target(name: "LNoteStore", dependencies: ["LNoteFormat"], path: "Sources/LNoteStore",
                swiftSettings: strict),
        // fsck as a library: checks, repairs, reports.
        .target(name: "LNoteCheck", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteCheck",
                swiftSettings: strict),
        // Deterministic realistic handwriting (Hershey glyphs) for tests, demo and bench.
        .target(name: "LNoteHandwriting", dependencies: ["LNoteFormat"], path: "Sources/LNoteHandwriting",
                exclude: ["HERSHEY-ACKNOWLEDGEMENT.md"], swiftSettings: strict),
        // Simulated file system with crash states and fault injection, for tests and fuzzing.
        .target(name: "LNoteSimulation", dependencies: ["LNoteStore", "LNoteFormat"], path: "Sources/LNoteSimulation",
                swiftSettings: strict),
        // A notes client written against the public API only (`import LNoteStore`), built by CI.
        .executableTarget(name: "notes-example", dependencies: ["LNoteStore"], path: "Tools/notes-example",
                          swiftSettings: strict),
        .executableTarget(name: "lnote",
                          dependencies: ["LNoteCheck", "LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteSimulation"],
                          path: "Tools/lnote", swiftSettings: strict),
        // LNoteSimulation: FuzzRegressionTests replays saved fuzz inputs through its FuzzHarness.
        .testTarget(name: "LNoteFormatTests", dependencies: ["LNoteFormat", "LNoteHandwriting", "LNoteSimulation"]),
        .testTarget(name: "LNoteStoreTests", dependencies: ["LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteSimulation"]),
        .testTarget(name: "LNoteCheckTests", dependencies: ["LNoteCheck", "LNoteStore", "LNoteFormat", "LNoteHandwriting"]),
        .testTarget(name: "CrashTests", dependencies: ["LNoteSimulation", "LNoteStore", "LNoteFormat", "LNoteHandwriting"],
                    exclude: ["README.md"]),
        .testTarget(name: "ConformanceTests", dependencies: ["LNoteSimulation", "LNoteCheck", "LNoteStore", "LNoteFormat"]),
        // The app-facing API, through `import LNoteStore` only (no @testable, no package access).
        .testTarget(name: "LNotePublicAPITests", dependencies: ["LNoteStore"], exclude: ["public-api.txt"]),
        // Runs the built `lnote` tool on damaged packages; depends on it so `swift test` builds it.
        .testTarget(name: "LNoteCLITests", dependencies: ["lnote", "LNoteStore", "LNoteFormat", "LNoteHandwriting", "LNoteSimulation"]),
    ],
    swiftLanguageModes: [.v6]
)
