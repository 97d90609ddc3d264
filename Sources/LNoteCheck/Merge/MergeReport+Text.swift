import LNoteStore
import LNoteSync
import LNoteDiagnostics

extension MergeReport {
    /// The report as `lnote merge` prints it, every name escaped as fsck's report escapes it (K-034).
    public func humanText() -> String {
        var s =
            "\(TerminalSafeText.text(packagePath)): \(copies.count) conflict cop\(copies.count == 1 ? "y" : "ies"), "
        s += "\(changesApplied) change(s) applied, \(pagesAdded) page(s) added\n"
        for c in copies {
            s +=
                "  \(c.action.rawValue): \(TerminalSafeText.text(c.name)) (of \(TerminalSafeText.text(c.original))): \(TerminalSafeText.text(c.detail))\n"
        }
        for r in pagesRestored {
            s += "  restored: \(TerminalSafeText.text(r)) (from lost+found/, its page is listed now)\n"
        }
        for f in forkUnknown { s += "  forkUnknown: \(TerminalSafeText.text(f)): erased elements may have returned\n" }
        return s
    }
}
