import LNoteToolSupport
/// The bench's text output: one table per suite, its notes, and the targets.
enum BenchTable {
    static func header(_ r: BenchReport) -> String {
        """
        lnote bench\(r.quick ? " --quick" : "") at \(r.startedAt): \(r.machine.cores) cores, \(r.machine.cpu), \
        \(r.machine.fileSystem), Linux \(r.machine.kernel); SQLite \(r.sqliteVersion ?? "unavailable")
        Absolute times vary between machines; the ratios, measured in the same run, are the claim.


        """
    }

    static func render(_ s: BenchSuiteResult) -> String {
        var out = "== \(s.name): \(s.title)"
        out +=
            " (\(fixed(s.seconds, 1)) s" + (s.peakRSSBytes.map { ", peak RSS \(mib($0))" } ?? "")
            + (s.peerPeakRSSBytes.map { ", SQLite peer peak RSS \(mib($0))" } ?? "") + ")\n"
        if let skipped = s.skipped { return out + "  skipped: \(skipped)\n" }
        let designWidth = max(10, s.rows.map(\.design.count).max() ?? 10)
        let settingWidth = max(7, s.rows.map(\.setting.count).max() ?? 7)
        out +=
            pad("design", designWidth) + "  " + pad("setting", settingWidth) + "  "
            + ["p50", "p90", "p99", "max"].map { lpad($0, 9) }.joined(separator: " ") + "  ratio\n"
        for r in s.rows {
            var line = pad(r.design, designWidth) + "  " + pad(r.setting, settingWidth) + "  "
            if let st = r.stats {
                line += [st.p50, st.p90, st.p99, st.max].map { lpad(formatMicros($0), 9) }.joined(separator: " ")
            } else if let v = r.value {
                line += pad(lpad(format(v, 3), 9) + " " + r.unit, 39)
            }
            if let ratio = r.ratio { line += "  " + format(ratio, 3) + "x " + (r.ratioTo.map { "vs \($0)" } ?? "") }
            if let e = r.extra, !e.isEmpty {
                line +=
                    "  ["
                    + e.sorted { $0.key < $1.key }.map { "\(short($0.key))=\(format($0.value, 3))" }.joined(
                        separator: " ") + "]"
            }
            out += line + "\n"
        }
        for n in s.notes { out += "  - \(n)\n" }
        return out
    }

    static func targets(_ r: BenchReport) -> String {
        let t = r.targets
        guard !t.isEmpty else { return "No targets checked.\n" }
        var out = "== Targets (\(t.filter(\.met).count) of \(t.count) met)\n"
        for x in t {
            out +=
                (x.met ? "  met     " : "  MISSED  ") + "\(x.id): \(x.claim): \(format(x.measured, 3)) "
                + "(\(x.atLeast ? ">=" : "<=") \(format(x.limit, 3)))" + (x.detail.isEmpty ? "" : "; \(x.detail)")
                + "\n"
        }
        return out
    }

    static func mib(_ bytes: Int) -> String { format(Double(bytes) / 1_048_576, 3) + " MiB" }

    private static func lpad(_ s: String, _ w: Int) -> String {
        s.count >= w ? s : String(repeating: " ", count: w - s.count) + s
    }

    private static func short(_ key: String) -> String {
        switch key {
        case "writeCallBytesPerPayloadByte": return "written/payload"
        case "storageBytesPerPayloadByte": return "disk/payload"
        default: return key
        }
    }
}
