import LNoteFormat
import LNoteSimulation
import LNoteStore

/// One step of a page workload: what the app does, and the durability it asks for.
///
/// Appends carry the frame payload size they aim for (`length` field of the frame: sequence
/// plus body), so that frames start and end on and around 512- and 4096-byte boundaries.
/// Sizes below the smallest stroke (a 31-byte body, 39-byte payload) give that smallest stroke.
enum PageOp: Hashable, Sendable, CustomStringConvertible {
    case append(payload: Int, Durability)
    /// Partial erase of the top element: replaced by one fresh fragment (E-021).
    case erase
    /// Moves every element (a new translation each time, E-022).
    case move
    /// Deletes the bottom element (E-023).
    case delete
    case compact
    case flush
    case close
    /// Close, then open again from what the file system holds.
    case reopen
    /// Appends an image element (the asset side is the document's job).
    case insertImage
    /// Prepares the next journal now (P-022, `Page.prepareNextJournal`); not in the vocabulary
    /// (a page prepares on its own only with a compaction threshold), run by its own workloads.
    case prepare

    /// The payload sizes the issue names: around sectors (512) and pages (4096), and large.
    static let payloadSizes = [0, 1, 511, 512, 513, 4095, 4096, 65_536]

    /// The exhaustive vocabulary: every named payload at `.data`, one unsynced append (so that
    /// `flush` has work), and every other operation.
    static let vocabulary: [PageOp] =
        payloadSizes.map { .append(payload: $0, .data) }
        + [.append(payload: 100, .none), .erase, .move, .delete, .compact, .flush, .close, .reopen, .insertImage]

    var description: String {
        switch self {
        case let .append(payload, durability): return "append(\(payload), .\(durability.rawValue))"
        case .erase: return "erase"
        case .move: return "move"
        case .delete: return "delete"
        case .compact: return "compact"
        case .flush: return "flush"
        case .close: return "close"
        case .reopen: return "reopen"
        case .insertImage: return "insertImage"
        case .prepare: return "prepare"
        }
    }
}

/// Deterministic elements for workloads: ids from a counter, strokes of an exact encoded size.
struct ElementFactory {
    private var counter: UInt64

    init(seed: UInt64) { counter = seed << 20 }

    mutating func nextID() -> UUIDBytes {
        counter += 1
        return UUIDBytes(storage: (0x1C4A_5E00_0000_0000 | (counter >> 20), counter & 0xF_FFFF | 0x4000_0000))
    }

    /// A stroke whose frame payload (sequence + element body) is `payload` bytes when that is at
    /// least the smallest stroke's; otherwise the smallest stroke.
    mutating func stroke(payload: Int) -> Element {
        let id = nextID()
        let target = payload - FormatLimits.sequenceBytes
        // Body = fixed part + ink type + count varint + 5 bytes a point (every delta fits one byte).
        func make(points: Int, inkBytes: Int) -> Element {
            let pts = (0..<points).map { i in
                Point(x: Int32(i % 50), y: Int32(i % 50), radius: 8, pressure: 40, time: UInt32(i))
            }
            let ink = Ink(type: String(repeating: "p", count: inkBytes), red: 1, green: 2, blue: 3, width: 12)
            return .stroke(Stroke(id: id, ink: ink, points: pts))
        }
        func size(_ e: Element) -> Int {
            var w = ByteWriter()
            ElementCodec.encode(e, into: &w)
            return w.count
        }
        let smallest = make(points: 1, inkBytes: 1)
        guard target > size(smallest) else { return smallest }
        var points = max(1, (target - 32) / 5)
        while points >= 1 {
            let base = size(make(points: points, inkBytes: 1))
            let extra = target - base
            if extra >= 0 && extra < FormatLimits.inkTypeBytesMax { return make(points: points, inkBytes: 1 + extra) }
            if extra < 0 { points -= 1 } else { points += 1 }
        }
        return smallest
    }

    mutating func image() -> Element {
        let id = nextID()
        return .image(ImageElement(id: id, assetID: nextID(), x: 100, y: 200, width: 3000, height: 2000))
    }

    /// A small stroke for fragments and seeds.
    mutating func smallStroke() -> Element { stroke(payload: 80) }
}
