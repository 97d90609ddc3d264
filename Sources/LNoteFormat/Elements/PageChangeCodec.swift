#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// The bodies of the page-change frames: which frame type carries which change and how its
/// body (the payload after the `sequence`) is laid out (Spec/format.md 3.1, 6.4, F-012, E-027).
///
/// Cost: O(body size). Decode checks every count against `idsPerChangeMax` and against the
/// bytes that remain before it allocates (E-027), and never traps. The encoding is canonical:
/// an accepted body re-encodes to the same bytes (E-031).
public enum PageChangeCodec {
    /// Bytes of one entry of `elementsTransform`: id 16 + transform 24 (3.1).
    static let transformEntryBytes = 16 + ElementCodec.transformBytes
    /// Bytes of one id (3.1).
    static let idBytes = 16

    /// The frame type that carries `c` (3.1).
    public static func frameType(of c: PageChange) -> FrameType {
        switch c {
        case .append: return .elementAppend
        case .replace: return .elementReplace
        case .transform: return .elementsTransform
        case .delete: return .elementsDelete
        case .reorder: return .elementsReorder
        case .metadata: return .pageMetadata
        }
    }

    /// Appends the body of `c` (not the sequence, which the frame codec writes first) and
    /// returns the frame type to write it under (3.1).
    ///
    /// Does not validate the elements it carries (see `ElementValidator`). A negative reorder
    /// index is written as 0, which applies identically (E-024). Never traps.
    @discardableResult
    public static func encodeBody(_ c: PageChange, into w: inout ByteWriter) -> FrameType {
        switch c {
        case .append(let e):
            ElementCodec.encode(e, into: &w)
        case .replace(let target, let fragments):
            w.uuid(UUIDBytes(target))
            w.varint(UInt64(fragments.count))
            for f in fragments { ElementCodec.encode(f, into: &w) }
        case .transform(let pairs):
            w.varint(UInt64(pairs.count))
            for (id, t) in pairs {
                w.uuid(UUIDBytes(id))
                ElementCodec.encodeTransform(t, into: &w)
            }
        case .delete(let ids):
            w.varint(UInt64(ids.count))
            for id in ids { w.uuid(UUIDBytes(id)) }
        case .reorder(let index, let ids):
            w.varint(UInt64(max(index, 0)))
            w.varint(UInt64(ids.count))
            for id in ids { w.uuid(UUIDBytes(id)) }
        case .metadata(let m):
            w.varint(UInt64(m.width))
            w.varint(UInt64(m.height))
            w.u8(0)  // flags, must be zero (3.1)
        }
        return frameType(of: c)
    }

    /// The frame type and body bytes of `c`.
    public static func encode(_ c: PageChange) -> (type: FrameType, body: [UInt8]) {
        var w = ByteWriter()
        let type = encodeBody(c, into: &w)
        return (type, w.bytes)
    }

    /// Decodes the body of a frame of type `type`; `body` is the payload after the sequence,
    /// `baseOffset` its offset in the file (added to error offsets).
    ///
    /// Throws `unknownType` for any type that is not a page change (including `padding`, which
    /// the frame reader skips itself), `countTooLarge` for a count above `idsPerChangeMax` or
    /// more than the remaining bytes can hold (E-027), `trailingBytes` when the body is not
    /// fully consumed (F-012), `badFlags` for non-zero metadata flags, `valueOutOfRange` for a
    /// size or index that does not fit its type, and every reason of `ElementCodec.decode`.
    /// Any of these but `unknownType` makes the frame's body invalid (`badBody`, E-030).
    /// Never traps.
    public static func decode(
        type: UInt8, body: UnsafeRawBufferPointer,
        baseOffset: Int
    ) throws(DecodeError) -> PageChange {
        try decode(type: type, body: body, baseOffset: baseOffset, source: nil)
    }

    /// Decodes the body `body` (a slice of the buffer read; its indices are the offsets
    /// reported) as `decode(type:body:baseOffset:)`. With `points: .deferred` the strokes it
    /// carries keep their points encoded, as slices of `body` (E-006): no copy.
    public static func decode(
        type: UInt8, body: ArraySlice<UInt8>,
        points: PointDecoding
    ) throws(DecodeError) -> PageChange {
        let result: Result<PageChange, DecodeError> = body.withUnsafeBytes { raw in
            do throws(DecodeError) {
                return .success(
                    try decode(
                        type: type, body: raw, baseOffset: body.startIndex,
                        source: points == .deferred ? body : nil))
            } catch {
                return .failure(error)
            }
        }
        return try result.get()
    }

    /// The decoder; `source` (the bytes of `body` as a slice) non-nil selects deferred points.
    package static func decode(
        type: UInt8, body: UnsafeRawBufferPointer, baseOffset: Int,
        source: ArraySlice<UInt8>?
    ) throws(DecodeError) -> PageChange {
        var r = ByteReader(body, baseOffset: baseOffset)
        let change: PageChange
        switch FrameType(rawValue: type) {
        case .elementAppend:
            return .append(try decodeAppend(&r, source: source))
        case .elementReplace:
            let target = try r.uuid()
            let n = try boundedCount(&r, unitBytes: ElementCodec.elementBytesMin)
            var fragments = [Element]()
            fragments.reserveCapacity(n)
            for _ in 0..<n { fragments.append(try ElementCodec.decode(from: &r, source: source)) }
            change = .replace(target: UUID(target), fragments: fragments)
        case .elementsTransform:
            let n = try boundedCount(&r, unitBytes: transformEntryBytes)
            var pairs = [(UUID, Transform)]()
            pairs.reserveCapacity(n)
            for _ in 0..<n {
                let id = try r.uuid()
                pairs.append((UUID(id), try ElementCodec.decodeTransform(from: &r)))
            }
            change = .transform(pairs)
        case .elementsDelete:
            change = .delete(try ids(&r).map(UUID.init))
        case .elementsReorder:
            let index = try r.varint()
            guard let i = Int(exactly: index) else { throw r.error("valueOutOfRange") }
            change = .reorder(index: i, ids: try ids(&r).map(UUID.init))
        case .pageMetadata:
            let width = try r.varint(), height = try r.varint()
            guard let w32 = UInt32(exactly: width), let h32 = UInt32(exactly: height) else {
                throw r.error("valueOutOfRange")
            }
            guard try r.u8() == 0 else { throw DecodeError("badFlags", at: r.baseOffset + r.offset - 1) }
            change = .metadata(PageMetadata(width: w32, height: h32))
        case .padding, .clock, nil:
            throw DecodeError("unknownType", at: baseOffset)
        }
        guard r.isAtEnd else { throw r.error("trailingBytes") }
        return change
    }

    /// The element of an `elementAppend` body (`body`, at `baseOffset` in the file), as
    /// `decode` returns it in `.append`, without the change around it (readers of snapshots,
    /// which hold nothing else). `source` as in `decode`; `known` as in
    /// `ElementCodec.decode(from:source:known:)` (the same outcome, with less work when the
    /// points are those bytes); `pending` as in `ElementCodec.decode(from:source:known:pending:)`
    /// (the structure walk left to be confirmed).
    @_optimize(speed) package static func decodeAppend(
        body: UnsafeRawBufferPointer, baseOffset: Int,
        source: ArraySlice<UInt8>?, known: EncodedPoints? = nil,
        pending: PendingPointChecks? = nil
    ) throws(DecodeError) -> Element {
        var r = ByteReader(body, baseOffset: baseOffset)
        let e = try ElementCodec.decode(from: &r, source: source, known: known, pending: pending)
        guard r.isAtEnd else { throw r.error("trailingBytes") }
        return e
    }

    /// `decodeAppend(body:baseOffset:source:known:pending:)` with deferred points for a body
    /// that is `file[baseOffset ..< baseOffset + body.count]` (the strokes' points sliced from
    /// `file` once, `ElementCodec.decode(from:file:base:)`).
    @_optimize(speed) package static func decodeAppend(
        body: UnsafeRawBufferPointer, baseOffset: Int, file: [UInt8],
        pending: PendingPointChecks? = nil
    ) throws(DecodeError) -> Element {
        var r = ByteReader(body, baseOffset: baseOffset)
        let e = try ElementCodec.decode(from: &r, file: file, base: baseOffset, pending: pending)
        guard r.isAtEnd else { throw r.error("trailingBytes") }
        return e
    }

    /// The element, then F-012: nothing after it.
    @_optimize(speed) private static func decodeAppend(
        _ r: inout ByteReader, source: ArraySlice<UInt8>?
    ) throws(DecodeError) -> Element {
        let e = try ElementCodec.decode(from: &r, source: source)
        guard r.isAtEnd else { throw r.error("trailingBytes") }
        return e
    }

    /// A count varint of at most `idsPerChangeMax` whose entries of at least `unitBytes` each
    /// fit in what remains (E-027), else `countTooLarge`.
    private static func boundedCount(_ r: inout ByteReader, unitBytes: Int) throws(DecodeError) -> Int {
        let v = try r.varint()
        guard v <= UInt64(FormatLimits.idsPerChangeMax), Int(v) <= r.remaining / unitBytes else {
            throw r.error("countTooLarge")
        }
        return Int(v)
    }

    /// `count: varint` then `count` ids (3.1).
    private static func ids(_ r: inout ByteReader) throws(DecodeError) -> [UUIDBytes] {
        let n = try boundedCount(&r, unitBytes: idBytes)
        var out = [UUIDBytes]()
        out.reserveCapacity(n)
        for _ in 0..<n { out.append(try r.uuid()) }
        return out
    }
}
