import LNoteStore
import LNoteSync

extension MergeReport {
    /// The report as `lnote merge` prints it, every name escaped as fsck's report escapes it (K-034).
    public func humanText() -> String {
        var s = "\(Escaped.text(path)): \(copies.count) conflict cop\(copies.count == 1 ? "y" : "ies"), "
        s += "\(changesApplied) change(s) applied, \(pagesAdded) page(s) added\n"
        for c in copies { s += "  \(c.action.rawValue): \(Escaped.text(c.name)) (of \(Escaped.text(c.original))): \(Escaped.text(c.detail))\n" }
        for r in pagesRestored { s += "  restored: \(Escaped.text(r)) (from lost+found/, its page is listed now)\n" }
        for f in forkUnknown { s += "  forkUnknown: \(Escaped.text(f)): erased elements may have returned\n" }
        return s
    }
}
