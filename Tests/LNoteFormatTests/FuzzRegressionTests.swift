#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteSimulation
import Testing

/// Replays every input saved under Tools/fuzz/regressions/<target>/ (inputs the fuzzers of
/// Tools/fuzz once broke an invariant with) and every target's seeds through the same harness
/// the libFuzzer binaries run (`FuzzHarness`), as ordinary tests.
@Suite("Fuzz regressions")
struct FuzzRegressionTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// (target, file name, bytes) of every saved input.
    static func savedInputs() -> [(target: String, name: String, bytes: [UInt8])] {
        var result: [(String, String, [UInt8])] = []
        let fm = FileManager.default
        for target in FuzzHarness.targets {
            let dir = root.appendingPathComponent("Tools/fuzz/regressions/\(target)")
            let names = ((try? fm.contentsOfDirectory(atPath: dir.path)) ?? []).filter { !$0.hasPrefix(".") }.sorted()
            for name in names {
                if let data = fm.contents(atPath: dir.appendingPathComponent(name).path) { result.append((target, name, Array(data))) }
            }
        }
        return result
    }

    static func replay(_ target: String, _ bytes: [UInt8]) async -> String? {
        target == "package-open" ? await FuzzHarness.packageOpen(bytes) : FuzzHarness.run(target, bytes)
    }

    @Test("F-005 J-014 E-031 D-020 every saved fuzz input passes its harness's invariants")
    func savedInputsHold() async {
        let inputs = Self.savedInputs()
        for input in inputs {
            let failure = await Self.replay(input.target, input.bytes)
            #expect(failure == nil, "Tools/fuzz/regressions/\(input.target)/\(input.name): \(failure ?? "")")
        }
        print("fuzz regressions replayed: \(inputs.count)")
    }

    @Test("E-031 every fuzz target's seeds are valid inputs that hold every invariant", arguments: FuzzHarness.targets)
    func seedsHold(target: String) async {
        let seeds = FuzzHarness.seeds(target)
        #expect(!seeds.isEmpty)
        for (index, seed) in seeds.enumerated() {
            let failure = await Self.replay(target, seed)
            #expect(failure == nil, "\(target) seed \(index): \(failure ?? "")")
        }
    }

    @Test("F-003 control: the frame-reader invariant check reports a frame that does not re-encode")
    func harnessReportsNonReencodingFrame() {
        let seed = FuzzHarness.seeds("frame-reader")[1]  // flag 0: a valid journal as is
        let file = Array(seed.dropFirst())
        #expect(FuzzHarness.run("frame-reader", seed) == nil)
        guard let scan = FuzzHarness.scanForCheck(file) else {
            Issue.record("the seed journal has no header")
            return
        }
        #expect(scan.frames.count == 8)
        var damaged = file
        damaged[scan.frames[0].bodyRange.lowerBound + 3] ^= 0x40
        #expect(FuzzHarness.checkScan(scan.result, file: damaged, start: 64, salt: scan.salt) != nil)
        #expect(FuzzHarness.checkScan(scan.result, file: file, start: 64, salt: scan.salt) == nil)
    }
}
