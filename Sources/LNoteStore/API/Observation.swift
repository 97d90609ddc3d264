#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LNoteFormat

// Observation, in the manner of GRDB's ValueObservation: a subscription first delivers the
// current value, then one value per change, in the order the changes were made, as an
// `AsyncStream` the app iterates (`for await update in page.updates() { ... }`). Changes
// made in this process are observed (every window sharing a `Document` sees the others'
// changes); another process's changes are not. Iteration ends when the reader stops or the
// page / document closes. The stream buffers what the reader has not yet taken.

/// One change of a page as an observer sees it: what changed and the page after it.
public struct PageUpdate: Sendable, Equatable {
    /// The changes applied, in order; empty for the first value (the page as it was when the
    /// observation started).
    public var changes: [PageChange]
    /// The page's elements and canvas after the changes (in memory: delivered when the change
    /// is applied, before its sync returns).
    public var state: PageState
    /// In the first value: what the page's open found damaged (P-041, P-042), nil when
    /// nothing; nil in every later value.
    public var damage: PageDamage?

    /// An update (the engine makes these; apps read them).
    @_alwaysEmitIntoClient public init(changes: [PageChange], state: PageState, damage: PageDamage? = nil) {
        self.changes = changes; self.state = state; self.damage = damage
    }
}

extension Page {
    /// The page's current state, then every change made to it through any handle in this
    /// process. Ends when the page closes.
    ///
    /// Subscribed when the call returns, without an `await`: no change made after it is
    /// missed, and none the first value already shows is delivered again.
    ///
    /// Cost: nothing while no one observes. An update shares the page's storage; while a
    /// reader has not yet taken it, the page's next change copies its element array and index
    /// (O(elements)), so read updates promptly.
    public nonisolated func updates() -> AsyncStream<PageUpdate> {
        updateFeed.subscribe { [weak self] in await self?.currentUpdate() }
    }

    private func currentUpdate() -> (PageUpdate, UInt64) {
        (PageUpdate(changes: [], state: state, damage: damage), updateFeed.published)
    }
}

/// The document's structure as an observer sees it.
public struct DocumentUpdate: Sendable, Equatable {
    /// The document title.
    public var title: String
    /// Page ids in order.
    public var pageIDs: [UUID]
    /// When document.json last changed.
    public var modified: Date?
    /// Pages whose open found damage (`Document.damagedPages`), in page order: a page that
    /// opens damaged publishes an update with it added.
    public var damagedPages: [UUID]
    /// The pages in the document's trash (`Document.trashedPages()`), in id order: a delete,
    /// restore or purge publishes an update.
    public var trashedPages: [UUID]
    /// Changes each time retention (`Document.applyHistoryRetention`) changed the history of a
    /// page: an app showing a page's versions lists them again.
    public var historyRevision: UInt64 = 0

    /// An update (the engine makes these; apps read them).
    @_alwaysEmitIntoClient public init(
        title: String, pageIDs: [UUID], modified: Date?, damagedPages: [UUID] = [],
        trashedPages: [UUID] = [], historyRevision: UInt64 = 0
    ) {
        self.title = title; self.pageIDs = pageIDs; self.modified = modified; self.damagedPages = damagedPages
        self.trashedPages = trashedPages; self.historyRevision = historyRevision
    }
}

extension Document {
    /// The document's title and page order now, then after every structural change (title,
    /// pages added, removed, moved, restored), every change of its trash, every page that
    /// opens damaged and every retention run that changed a page's history. Ends when the document
    /// closes.
    ///
    /// Subscribed when the call returns, without an `await`: no change made after it is
    /// missed, and none the first value already shows is delivered again.
    public nonisolated func updates() -> AsyncStream<DocumentUpdate> {
        structureUpdates.subscribe { [weak self] in await self?.currentUpdateAndCount() }
    }

    private func currentUpdateAndCount() -> (DocumentUpdate, UInt64) { (currentUpdate, structureUpdates.published) }

    var currentUpdate: DocumentUpdate {
        DocumentUpdate(
            title: file.title, pageIDs: file.pages.map { UUID($0.id) }, modified: Timestamp.date(from: file.modified),
            damagedPages: damagedPages.map(\.pageID), trashedPages: trashIDs.map(UUID.init),
            historyRevision: historyRevision)
    }
}
