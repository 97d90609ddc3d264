import LNoteFormat
import LNoteStore

/// The verification of one document (Q-050 ... Q-053): what the package holds against what
/// the database holds, page by page, and every difference found.
public struct DocumentVerification: Codable, Sendable, Equatable {
    public struct PageCounts: Codable, Sendable, Equatable {
        public var id: String
        public var position: Int
        /// Package side / database side.
        public var elements: [Int]
        public var strokes: [Int]
        public var images: [Int]
        public var points: [Int]
        /// CRC-32C over the page's strokes' digests in z-order, package / database, hex.
        public var pointsDigest: [String]
        public var idsInZOrderEqual: Bool
    }

    public var id: String
    public var title: String
    public var pages: [PageCounts]
    /// Package side / database side.
    public var pageCount: [Int]
    public var assetCount: [Int]
    public var assetBytes: [Int]
    /// Every difference, one sentence each; empty when the two sides are equal.
    public var differences: [String]

    public var isEqual: Bool { differences.isEmpty }
}

/// Compares two `DocumentContent`s, the package's (`expected`) and the database's or the
/// re-imported package's (`actual`).
public enum ContentComparison {
    /// The verification report of `actual` against `expected`. Differences found by exact
    /// comparison of every field are listed with the first few element ids concerned.
    public static func verify(expected e: DocumentContent, actual a: DocumentContent) -> DocumentVerification {
        var diffs: [String] = []
        if e.id != a.id { diffs.append("document id \(a.id) instead of \(e.id)") }
        if (e.title, e.created, e.modified) != (a.title, a.created, a.modified) {
            diffs.append("title or document times differ")
        }
        if e.pages.map(\.entry.id) != a.pages.map(\.entry.id) { diffs.append("page ids or page order differ") }
        var pages: [DocumentVerification.PageCounts] = []
        for (i, ep) in e.pages.enumerated() {
            let ap = i < a.pages.count ? a.pages[i] : nil
            let (es, ed) = summary(ep.state.elements)
            let (as_, ad) = summary(ap?.state.elements ?? [])
            let idsEqual = ep.state.elements.map(\.key) == (ap?.state.elements.map(\.key) ?? [])
            pages.append(
                .init(
                    id: ep.entry.id.description, position: i,
                    elements: [ep.state.elements.count, ap?.state.elements.count ?? 0],
                    strokes: [es.strokes, as_.strokes], images: [es.images, as_.images],
                    points: [es.points, as_.points], pointsDigest: [hex(ed), hex(ad)], idsInZOrderEqual: idsEqual))
            guard let ap else { continue }
            let label = "page \(i) (\(ep.entry.id))"
            if ep.state.elements.count != ap.state.elements.count {
                diffs.append("\(label): \(ap.state.elements.count) elements instead of \(ep.state.elements.count)")
            }
            if !idsEqual { diffs.append("\(label): element ids in z-order differ") }
            if ed != ad { diffs.append("\(label): points digest \(hex(ad)) instead of \(hex(ed))") }
            if ep.state.metadata != ap.state.metadata { diffs.append("\(label): canvas size differs") }
            if (ep.entry.created, ep.entry.modified) != (ap.entry.created, ap.entry.modified) {
                diffs.append("\(label): times differ")
            }
            let changed = zip(ep.state.elements, ap.state.elements).filter { $0.0 != $0.1 }.map(\.0.key)
            if !changed.isEmpty {
                diffs.append(
                    "\(label): \(changed.count) elements differ in a field (first \(changed.prefix(3).map(\.description).joined(separator: ", ")))"
                )
            }
        }
        if a.pages.count != e.pages.count { diffs.append("\(a.pages.count) pages instead of \(e.pages.count)") }
        if e.assets.count != a.assets.count { diffs.append("\(a.assets.count) assets instead of \(e.assets.count)") }
        if e.assets != a.assets, e.assets.count == a.assets.count {
            diffs.append("asset ids, extensions or bytes differ")
        }
        return DocumentVerification(
            id: e.id.description, title: e.title, pages: pages,
            pageCount: [e.pages.count, a.pages.count], assetCount: [e.assets.count, a.assets.count],
            assetBytes: [e.assets.reduce(0) { $0 + $1.byteCount }, a.assets.reduce(0) { $0 + $1.byteCount }],
            differences: diffs)
    }

    struct Summary { var strokes = 0, images = 0, points = 0 }

    /// Counts and the page's points digest: CRC-32C over each stroke's digest, in z-order.
    static func summary(_ elements: [Element]) -> (Summary, UInt32) {
        var s = Summary()
        var crc: UInt32 = 0
        for element in elements {
            switch element {
            case .image: s.images += 1
            case .stroke(let stroke):
                s.strokes += 1
                s.points += stroke.pointCount
                let points = stroke.points
                let d = PointBlob.digest(
                    points: PointBlob.encode(points), angles: stroke.hasAngles ? PointBlob.encodeAngles(points) : nil)
                withUnsafeBytes(of: d.littleEndian) { crc = CRC32C.extend(crc, $0) }
            }
        }
        return (s, crc)
    }

    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }
}
