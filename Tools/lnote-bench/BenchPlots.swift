import LNoteStore
import LNoteToolSupport

/// Writes the bench's plots as hand-made SVG: the save-latency distribution per design (CDF,
/// log x) and the two scaling curves (p50 with p99 dashed, log-log).
enum BenchPlots {
    /// Writes every plot the report has data for into `directory`; returns the file names.
    static func write(_ report: BenchReport, to directory: String) -> [String] {
        var written: [String] = []
        func save(_ name: String, _ svg: String?) {
            guard let svg else { return }
            if (try? POSIXFileSystem.shared.writeFileAtomically(
                joinPath(directory, name), Array(svg.utf8), durability: .none)) != nil
            {
                written.append(name)
            }
        }
        let caption = "\(report.machine.cores) cores, \(report.machine.cpu), \(report.machine.fileSystem)"
        if let save_ = report.suites.first(where: { $0.name == "save" }) {
            let rows = save_.rows.filter { $0.samples != nil && $0.setting.hasPrefix("data,") }
            let series = rows.map { row -> Series in
                let s = (row.samples ?? []).sorted()
                let pts = s.enumerated().map { (Double($0.element), Double($0.offset + 1) / Double(s.count)) }
                return Series(name: row.design, points: pts)
            }
            let setting = rows.first?.setting ?? ""
            save(
                "save-latency.svg",
                series.isEmpty
                    ? nil
                    : LinePlot(
                        title: "Stroke save latency, durability data (\(setting.replacingPrefix("data, ", "")))",
                        subtitle: caption, xLabel: "latency (us, log scale)", yLabel: "fraction of saves <= x",
                        logX: true, logY: false, series: series
                    ).svg())
        }
        if let scaling = report.suites.first(where: { $0.name == "scaling" }) {
            for (suffix, file, label) in [
                ("on the page", "scaling-strokes.svg", "strokes on the page"),
                ("in the document", "scaling-pages.svg", "pages in the document")
            ] {
                var series: [Series] = []
                for design in [ScalingSuite.journal, ScalingSuite.snapshot] {
                    let rows = scaling.rows.filter {
                        $0.design == design && $0.setting.hasSuffix(suffix) && $0.x != nil
                    }
                    guard !rows.isEmpty else { continue }
                    series.append(Series(name: design + " p50", points: rows.map { ($0.x ?? 0, $0.stats?.p50 ?? 0) }))
                    series.append(
                        Series(
                            name: design + " p99", points: rows.map { ($0.x ?? 0, $0.stats?.p99 ?? 0) }, dashed: true))
                }
                save(
                    file,
                    series.isEmpty
                        ? nil
                        : LinePlot(
                            title: "Save latency (durability data) against \(label)", subtitle: caption,
                            xLabel: label + " (log scale)", yLabel: "latency (us, log scale)", logX: true, logY: true,
                            series: series
                        ).svg())
            }
        }
        return written
    }
}

struct Series {
    var name: String
    var points: [(Double, Double)]
    var dashed = false
}

/// A minimal line plot: axes with decade (log) or even (linear) ticks, one polyline per series,
/// a legend. Pure string building.
struct LinePlot {
    var title: String
    var subtitle: String
    var xLabel: String
    var yLabel: String
    var logX: Bool
    var logY: Bool
    var series: [Series]

    static let colors = ["#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b", "#17becf", "#7f7f7f"]

    func svg() -> String {
        let width = 760.0, height = 460.0
        let left = 80.0, right = 250.0, top = 56.0, bottom = 56.0
        let plotW = width - left - right, plotH = height - top - bottom
        let xs = series.flatMap { $0.points.map(\.0) }.filter { !logX || $0 > 0 }
        let ys = series.flatMap { $0.points.map(\.1) }.filter { !logY || $0 > 0 }
        guard let xMin0 = xs.min(), let xMax0 = xs.max(), let yMin0 = ys.min(), let yMax0 = ys.max() else { return "" }
        let (xMin, xMax) = range(xMin0, xMax0, log: logX)
        let (yMin, yMax) = logY ? range(yMin0, yMax0, log: true) : (0.0, Swift.max(1.0, yMax0))
        func tx(_ x: Double) -> Double {
            let f = logX ? (ln10(x) - ln10(xMin)) / (ln10(xMax) - ln10(xMin)) : (x - xMin) / (xMax - xMin)
            return left + f * plotW
        }
        func ty(_ y: Double) -> Double {
            let f = logY ? (ln10(y) - ln10(yMin)) / (ln10(yMax) - ln10(yMin)) : (y - yMin) / (yMax - yMin)
            return top + plotH - f * plotH
        }
        var s = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(height))" viewBox="0 0 \(Int(width)) \(Int(height))" font-family="Helvetica, Arial, sans-serif" font-size="12">
            <rect width="100%" height="100%" fill="white"/>
            <text x="\(left)" y="22" font-size="15" font-weight="bold">\(escape(title))</text>
            <text x="\(left)" y="40" fill="#555">\(escape(subtitle))</text>
            <rect x="\(left)" y="\(top)" width="\(plotW)" height="\(plotH)" fill="none" stroke="#333"/>

            """
        for (v, label) in ticks(xMin, xMax, log: logX) {
            let x = fixed(tx(v), 1)
            s += "<line x1=\"\(x)\" y1=\"\(top)\" x2=\"\(x)\" y2=\"\(top + plotH)\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(x)\" y=\"\(top + plotH + 16)\" text-anchor=\"middle\">\(label)</text>\n"
        }
        for (v, label) in ticks(yMin, yMax, log: logY) {
            let y = fixed(ty(v), 1)
            s += "<line x1=\"\(left)\" y1=\"\(y)\" x2=\"\(left + plotW)\" y2=\"\(y)\" stroke=\"#ddd\"/>"
            s += "<text x=\"\(left - 6)\" y=\"\(y)\" text-anchor=\"end\" dominant-baseline=\"middle\">\(label)</text>\n"
        }
        s += "<text x=\"\(left + plotW / 2)\" y=\"\(height - 14)\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        s +=
            "<text transform=\"translate(18 \(top + plotH / 2)) rotate(-90)\" text-anchor=\"middle\">\(escape(yLabel))</text>\n"
        for (i, ser) in series.enumerated() {
            let color = Self.colors[
                (ser.dashed ? i - 1 : i) / (series.contains { $0.dashed } ? 2 : 1) % Self.colors.count]
            let pts = ser.points.filter { (!logX || $0.0 > 0) && (!logY || $0.1 > 0) }
                .map { fixed(tx($0.0), 1) + "," + fixed(ty($0.1), 1) }.joined(separator: " ")
            s +=
                "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"2\"\(ser.dashed ? " stroke-dasharray=\"6 4\"" : "") points=\"\(pts)\"/>\n"
            let ly = top + 10 + Double(i) * 20
            s +=
                "<line x1=\"\(left + plotW + 14)\" y1=\"\(ly)\" x2=\"\(left + plotW + 40)\" y2=\"\(ly)\" stroke=\"\(color)\" stroke-width=\"2\"\(ser.dashed ? " stroke-dasharray=\"6 4\"" : "")/>"
            s +=
                "<text x=\"\(left + plotW + 46)\" y=\"\(ly)\" dominant-baseline=\"middle\" font-size=\"11\">\(escape(ser.name))</text>\n"
        }
        return s + "</svg>\n"
    }

    private func range(_ a: Double, _ b: Double, log: Bool) -> (Double, Double) {
        guard log else { return (a, b > a ? b : a + 1) }
        var lo = 1.0, hi = 1.0
        while lo > a { lo /= 10 }
        while lo * 10 <= a { lo *= 10 }
        while hi < b { hi *= 10 }
        return (lo, hi > lo ? hi : lo * 10)
    }

    private func ticks(_ a: Double, _ b: Double, log: Bool) -> [(Double, String)] {
        if log {
            var out: [(Double, String)] = []
            var v = a
            while v <= b * 1.0001 { out.append((v, label(v))); v *= 10 }
            return out
        }
        return (0...4).map { i in
            let v = a + (b - a) * Double(i) / 4; return (v, format(v, 2))
        }
    }

    private func label(_ v: Double) -> String {
        if v >= 1_000_000 { return format(v / 1_000_000, 3) + "M" }
        if v >= 1000 { return format(v / 1000, 3) + "k" }
        return format(v, 3)
    }

    private func ln10(_ v: Double) -> Double {
        // log10 without Foundation: decade count plus a series for the mantissa's log.
        var m = v, e = 0.0
        while m >= 10 { m /= 10; e += 1 }
        while m < 1 { m *= 10; e -= 1 }
        // ln(m) by atanh series, m in [1, 10).
        let z = (m - 1) / (m + 1), z2 = z * z
        var term = z, sum = 0.0
        for k in stride(from: 1.0, through: 41.0, by: 2.0) { sum += term / k; term *= z2 }
        return e + 2 * sum / 2.302585092994046
    }

    private func escape(_ s: String) -> String {
        s.replacingOccurrences("&", "&amp;").replacingOccurrences("<", "&lt;").replacingOccurrences(">", "&gt;")
    }
}

extension String {
    func replacingPrefix(_ prefix: String, _ with: String) -> String {
        hasPrefix(prefix) ? with + dropFirst(prefix.count) : self
    }
    func replacingOccurrences(_ a: String, _ b: String) -> String {
        split(separator: a, omittingEmptySubsequences: false).joined(separator: b)
    }
}
