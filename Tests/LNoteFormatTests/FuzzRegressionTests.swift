#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteSimulation
import LNoteTestSupport
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
                if let data = fm.contents(atPath: dir.appendingPathComponent(name).path) {
                    result.append((target, name, Array(data)))
                }
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

    /// Seeded mutations of a target's seeds (bit flips, byte overwrites, inserts, deletes, cuts,
    /// splices), for the bounded fuzzing CI runs without libFuzzer.
    static func mutate(_ input: [UInt8], _ g: inout SeededGenerator, seeds: [[UInt8]]) -> [UInt8] {
        var bytes = input
        for _ in 0..<(1 + Int(g.next() % 4)) {
            let at = bytes.isEmpty ? 0 : Int(g.next() % UInt64(bytes.count))
            switch g.next() % 6 {
            case 0: if !bytes.isEmpty { bytes[at] ^= UInt8(1) << UInt8(g.next() % 8) }
            case 1: if !bytes.isEmpty { bytes[at] = UInt8(truncatingIfNeeded: g.next()) }
            case 2: bytes.insert(UInt8(truncatingIfNeeded: g.next()), at: at)
            case 3: if !bytes.isEmpty { bytes.remove(at: at) }
            case 4: bytes = Array(bytes.prefix(at))
            default:
                let other = seeds[Int(g.next() % UInt64(seeds.count))]
                let from = other.isEmpty ? 0 : Int(g.next() % UInt64(other.count))
                bytes = Array(bytes.prefix(at)) + other[from...]
            }
        }
        return bytes
    }

    @Test("F-005 E-031 D-020 bounded in-process fuzzing of every harness finds nothing", arguments: FuzzHarness.targets)
    func boundedFuzzing(target: String) async {
        let seeds = FuzzHarness.seeds(target)
        let executions =
            target == "package-open"
            ? TestLevel.current.pick(quick: 100, ci: 500, exhaustive: 5_000)
            : TestLevel.current.pick(quick: 1_500, ci: 10_000, exhaustive: 100_000)
        var g = SeededGenerator(seed: SeededGenerator.derive(0xF022, UInt64(target.utf8.count)))
        var corpus = seeds
        var findings: [String] = []
        for i in 0..<executions {
            let base = corpus[Int(g.next() % UInt64(corpus.count))]
            let input = Self.mutate(base, &g, seeds: seeds)
            if let failure = await Self.replay(target, input) {
                findings.append("\(target) input \(i) \(input.prefix(64)): \(failure)")
            }
            if i % 16 == 0 && corpus.count < 64 { corpus.append(input) }
        }
        print("fuzz \(target) (in-process, seeded): \(executions) executions, \(findings.count) findings")
        for f in findings.prefix(5) { print("FINDING \(f)") }
        #expect(findings.isEmpty)
    }
}
