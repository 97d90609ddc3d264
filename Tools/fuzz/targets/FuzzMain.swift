// libFuzzer entry points for one LNote fuzz target; `run.sh` compiles this file with a generated
// `FuzzTarget.swift` that names the target. The harness bodies live in
// Sources/LNoteSimulation/Fuzz so that `swift test` replays saved inputs through the same code.
import LNoteSimulation
import LNoteStore

@_cdecl("LLVMFuzzerTestOneInput")
public func lnoteFuzzOne(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = data.map { Array(UnsafeBufferPointer(start: $0, count: size)) } ?? []
    if let failure = FuzzHarness.run(fuzzTargetName, bytes) {
        fatalError("\(fuzzTargetName) invariant failed: \(failure)")
    }
    return 0
}

/// Writes the target's seed inputs into `$LNOTE_FUZZ_SEED_DIR` when that folder is empty.
@_cdecl("LLVMFuzzerInitialize")
public func lnoteFuzzInitialize(
    _ argc: UnsafeMutablePointer<Int32>?,
    _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>?
) -> Int32 {
    guard let dir = ToolSystem.environment("LNOTE_FUZZ_SEED_DIR") else { return 0 }
    for (index, seed) in FuzzHarness.seeds(fuzzTargetName).enumerated() {
        try? POSIXFileSystem.shared.writeFileAtomically(dir + "/seed-\(index)", seed, durability: .none)
    }
    return 0
}
