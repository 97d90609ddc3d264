/// The crash states of a captured operation log, produced lazily (M-007).
///
/// At every point of the log (before the first call, after each call that changed
/// persistence) the pending operations are combined as `CrashOptions` says: every subset of
/// up to `exhaustivePendingMax` of them, otherwise prefixes, "all but one" and seeded random
/// subsets; then each pending write torn at its allowed cuts, and each growing write with its
/// size persisted before its data (zeros or garbage), on three bases: with every earlier
/// pending operation kept, with none, and with every other one kept (a torn write followed by
/// later ones that did reach the disk). Operations of a subset apply in log order.
///
/// Points are visited from the last to the first, so with `dedupe` each distinct state is
/// reported once, at the LATEST point where a crash can leave it: the point whose guarantees
/// are strongest (more acknowledged work), so checking an invariant there covers the earlier
/// points too as long as the invariant only grows stricter with time.
///
/// Deterministic: the same log and options give the same states, in the same order, with the
/// same hashes. Cost per state: one copy of the touched files plus one hash over the tree.
package struct CrashStateSequence: Sequence, Sendable {
    let log: [LogEntry]
    let initialImage: InodeTable
    let options: CrashOptions

    package func makeIterator() -> CrashStateIterator {
        CrashStateIterator(log: log, initialImage: initialImage, options: options)
    }
}

/// Walks a log's crash states; also counts what it produced and what it skipped as duplicate.
package struct CrashStateIterator: IteratorProtocol {
    private let log: [LogEntry]
    private let options: CrashOptions
    private let initialImage: InodeTable
    /// The persistence at every point worth crashing at, ascending; consumed from the end.
    private var checkpoints: [(point: Int, persistence: PersistenceState)]?
    private var persistence: PersistenceState
    private var currentPoint = 0
    private var choices: [CrashChoice] = []
    private var choiceIndex = 0
    private var seen: Set<UInt64> = []

    /// States returned so far.
    package private(set) var statesProduced = 0
    /// States built but skipped because an equal state (same hash) was returned before.
    package private(set) var duplicatesSkipped = 0
    /// Points of the log at which states were built.
    package private(set) var pointsVisited = 0

    init(log: [LogEntry], initialImage: InodeTable, options: CrashOptions) {
        self.log = log
        self.options = options
        self.initialImage = initialImage
        persistence = PersistenceState(durable: initialImage)
    }

    package mutating func next() -> CrashState? {
        while true {
            while choiceIndex < choices.count {
                let choice = choices[choiceIndex]
                choiceIndex += 1
                let image = build(choice)
                let hash = image.stableHash
                if options.dedupe && !seen.insert(hash).inserted {
                    duplicatesSkipped += 1
                    continue
                }
                statesProduced += 1
                return CrashState(
                    point: currentPoint, image: image, stateHash: hash,
                    pending: persistence.pending, choice: choice)
            }
            guard advance() else { return nil }
        }
    }

    /// Moves to the previous point worth crashing at and lists its choices.
    private mutating func advance() -> Bool {
        if checkpoints == nil { checkpoints = replay() }
        guard let (point, state) = checkpoints?.popLast() else { return false }
        persistence = state
        currentPoint = point
        choices = makeChoices(point: point)
        choiceIndex = 0
        pointsVisited += 1
        return true
    }

    /// Replays the whole log once, keeping the persistence at each point in `options.points`
    /// whose states differ from the point before (a call without effects adds nothing).
    /// Cost: one copy of the pending list per kept point; file contents are shared.
    private func replay() -> [(point: Int, persistence: PersistenceState)] {
        var state = PersistenceState(durable: initialImage)
        var kept: [(point: Int, persistence: PersistenceState)] = []
        var previousKept = false
        for point in 0...log.count {
            var changed = point == 0
            if point > 0 {
                let entry = log[point - 1]
                for effect in entry.effects { state.apply(effect, logIndex: point - 1) }
                changed = !entry.effects.isEmpty
            }
            let wanted = options.points.map { $0.contains(point) } ?? true
            guard wanted else {
                previousKept = false
                continue
            }
            if !changed && previousKept {
                // Same states as the point before: report them at this later point instead.
                kept[kept.count - 1].point = point
                continue
            }
            kept.append((point, state))
            previousKept = true
        }
        return kept
    }

    /// The durable image plus the chosen pending operations, in log order.
    private func build(_ choice: CrashChoice) -> InodeTable {
        var image = persistence.durable
        let pending = persistence.pending
        for position in pending.indices {
            if let torn = choice.torn, torn.position == position {
                image.apply(torn.variant, of: pending[position].operation)
            } else if choice.subset.contains(position, count: pending.count) {
                image.apply(pending[position].operation)
            }
        }
        return image
    }

    // MARK: Choices

    private func makeChoices(point: Int) -> [CrashChoice] {
        let pending = persistence.pending
        let n = pending.count
        var choices: [CrashChoice] = []
        if n <= min(options.exhaustivePendingMax, 20) {
            choices.reserveCapacity(1 << n)
            for mask in 0..<(UInt64(1) << UInt64(n)) { choices.append(CrashChoice(subset: .mask(mask), torn: nil)) }
        } else {
            if n <= options.structuredPendingMax {
                for k in 0...n { choices.append(CrashChoice(subset: .prefix(k), torn: nil)) }
                for i in 0..<n { choices.append(CrashChoice(subset: .allBut(i), torn: nil)) }
            } else {
                choices.append(CrashChoice(subset: .prefix(0), torn: nil))
                choices.append(CrashChoice(subset: .prefix(n), torn: nil))
            }
            var generator = SeededGenerator(seed: SeededGenerator.derive(options.seed, UInt64(point)))
            for _ in 0..<max(0, options.sampledSubsetsPerPoint) {
                let members = (0..<n).map { _ in generator.next() & 1 == 1 }
                choices.append(CrashChoice(subset: .members(members), torn: nil))
            }
        }
        guard options.tornWrites || options.grownAppends else { return choices }
        for (position, pendingOperation) in pending.enumerated() {
            guard case let .write(_, offset, bytes, grows) = pendingOperation.operation else { continue }
            let seed = SeededGenerator.derive(options.seed, UInt64(point), UInt64(position))
            for variant in tornVariants(offset: offset, count: bytes.count, grows: grows, seed: seed) {
                let torn = TornChoice(position: position, variant: variant)
                choices.append(CrashChoice(subset: .prefix(position), torn: torn))
                if position > 0 { choices.append(CrashChoice(subset: .mask(0), torn: torn)) }
                if position < n - 1 { choices.append(CrashChoice(subset: .allBut(position), torn: torn)) }
            }
        }
        return choices
    }

    /// The ways one write can be torn (M-004) or grown without its data (M-005).
    func tornVariants(offset: Int, count: Int, grows: Bool, seed: UInt64) -> [TornWrite] {
        let limit = max(1, options.tornCutsPerWriteMax)
        var boundaryCuts = Set<Int>()
        for boundary in options.tornBoundaries where boundary > 0 {
            var first = (boundary - offset % boundary) % boundary
            if first == 0 { first = boundary }
            guard first < count else { continue }
            let available = (count - 1 - first) / boundary + 1
            let step = boundary * max(1, available / limit)
            for cut in stride(from: first, to: count, by: step) { boundaryCuts.insert(cut) }
        }
        let sectorCuts = Self.spread(boundaryCuts.sorted(), limit)
        var variants: [TornWrite] = []
        if options.tornWrites && count > 1 {
            let cuts = count <= options.everyByteCutBytesMax ? Array(1..<count) : sectorCuts
            variants += Self.spread(cuts, limit).map { TornWrite.prefix($0) }
        }
        if options.grownAppends && grows {
            variants.append(.prefixThenZeros(0))
            variants.append(.garbage(seed: seed))
            variants += sectorCuts.map { TornWrite.prefixThenZeros($0) }
        }
        return variants
    }

    /// At most `limit` elements of `values`, evenly spread, first and order kept.
    private static func spread(_ values: [Int], _ limit: Int) -> [Int] {
        guard values.count > limit else { return values }
        return (0..<limit).map { values[$0 * values.count / limit] }
    }
}
