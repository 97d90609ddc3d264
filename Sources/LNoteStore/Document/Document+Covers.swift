import LNoteFormat

extension Document {
    /// At `flush()`: renders the thumbnail of every open page that changed since its
    /// thumbnail was stored (or has none), so a listing shows an up-to-date cover while the
    /// document stays open in a window (D-050). Each page renders at most once per change
    /// (its change sequence is recorded), so repeated flushes without writes render nothing;
    /// the rendering runs on the I/O thread, never on a save's path. Cost: one render per
    /// changed page (256 px wide).
    func renderChangedThumbnails() async throws {
        let (fs, layout) = (self.fs, self.layout)
        for entry in file.pages {
            guard let page = pages[entry.id] else { continue }
            let now = await page.changeSequence
            let stored = thumbnailSequence[entry.id]
            let exists = try await BlockingIO.run { try fs.entryKind(layout.thumbnail(entry.id)) != nil }
            guard !exists || (stored.map { $0 != now } ?? (now != openedSequence[entry.id])) else { continue }
            let state = await page.state
            let png = await BlockingIO.runNonThrowing {
                PageRenderer.png(elements: state.elements, metadata: state.metadata, width: 256)
            }
            try await writeThumbnail(png, for: entry.id)
            thumbnailSequence[entry.id] = now
        }
    }
}
