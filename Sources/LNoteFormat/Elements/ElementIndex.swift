/// The position of every element id of a page (`PageState`'s index): an open-addressing table
/// with linear probing, at most half full.
///
/// Ids are random, but the bytes come from files, so the hash is keyed: one 64 x 64 -> 128-bit
/// multiply of the id's halves, each mixed with a per-process random key, folded to 64 bits.
/// Without the key no one can choose ids that collide. Cost: one multiply and usually one or
/// two slots per look-up, against a SipHash of 16 bytes for `Dictionary`, which dominated the
/// CPU time of opening a large page.
/// Removal shifts the following entries back (no tombstones). Never traps on any id.
struct ElementIndex: Sendable {
    private struct Slot: Sendable {
        var id: UUIDBytes
        /// The element's position; `empty` when the slot holds nothing.
        var position: Int
    }

    private static let empty = -1
    private static let emptySlot = Slot(id: .zero, position: empty)
    /// Drawn once per process.
    private static let key: (UInt64, UInt64) = {
        var g = SystemRandomNumberGenerator()
        return (g.next() | 1, g.next() | 1)
    }()

    private var slots: [Slot]
    /// The number of ids held.
    private(set) var count = 0

    init() { slots = [] }

    private var mask: Int { slots.count - 1 }

    @inline(__always)
    private static func hash(_ id: UUIDBytes) -> Int {
        let k = key
        let m = (id.storage.0 ^ k.0).multipliedFullWidth(by: id.storage.1 ^ k.1)
        return Int(truncatingIfNeeded: m.high ^ m.low)
    }

    /// The slot holding `id`, or the empty slot where it would go. Requires a non-empty table.
    @inline(__always)
    private func find(_ id: UUIDBytes) -> (slot: Int, found: Bool) {
        let mask = self.mask
        var i = Self.hash(id) & mask
        while true {
            let s = slots[i]
            if s.position == Self.empty { return (i, false) }
            if s.id == id { return (i, true) }
            i = (i + 1) & mask
        }
    }

    /// Room for `n` ids without growing.
    mutating func reserveCapacity(_ n: Int) {
        guard n > 0, n <= 1 << 40 else { return }  // callers bound `n` by what they hold
        let wanted = max(8, (2 * n).nextPowerOfTwo)
        if wanted > slots.count { rehash(to: wanted) }
    }

    /// The position of `id`, or nil.
    subscript(id: UUIDBytes) -> Int? {
        guard count > 0 else { return nil }
        let (i, found) = find(id)
        return found ? slots[i].position : nil
    }

    /// Sets the position of `id`; returns the old one, or nil when `id` was not held.
    @discardableResult
    @_optimize(speed) mutating func updateValue(_ position: Int, forKey id: UUIDBytes) -> Int? {
        if 2 * (count + 1) > slots.count { rehash(to: max(8, 2 * slots.count)) }
        let (i, found) = find(id)
        if found {
            let old = slots[i].position
            slots[i].position = position
            return old
        }
        slots[i] = Slot(id: id, position: position)
        count += 1
        return nil
    }

    /// Forgets `id` (nothing happens when it is not held).
    mutating func removeValue(forKey id: UUIDBytes) {
        guard count > 0 else { return }
        let (found, isHeld) = find(id)
        guard isHeld else { return }
        let mask = self.mask
        var hole = found
        var j = found
        while true {
            j = (j + 1) & mask
            let s = slots[j]
            if s.position == Self.empty { break }
            // The entry at j may fill the hole when its home slot is not after the hole on
            // its probe path (cyclically): distance home -> j covers hole -> j.
            let home = Self.hash(s.id) & mask
            if (j &- home) & mask >= (j &- hole) & mask {
                slots[hole] = s
                hole = j
            }
        }
        slots[hole] = Self.emptySlot
        count -= 1
    }

    private mutating func rehash(to capacity: Int) {
        let old = slots
        slots = [Slot](repeating: Self.emptySlot, count: capacity)
        count = 0
        for s in old where s.position != Self.empty {
            let (i, _) = find(s.id)
            slots[i] = s
            count += 1
        }
    }
}

extension Int {
    /// The smallest power of two at least `self` (1 for `self <= 1`); `self` must be at most 2^62.
    fileprivate var nextPowerOfTwo: Int {
        self <= 1 ? 1 : 1 << (Int.bitWidth - (self - 1).leadingZeroBitCount)
    }
}
