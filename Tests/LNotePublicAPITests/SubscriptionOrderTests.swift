import Foundation
import LNoteStore
import Testing

/// `updates()` subscribes when it returns, without an `await`: a change made right after it is
/// never missed, whether the first value already shows it or an update brings it, and never
/// delivered twice.
@Suite("Subscriptions that never miss a change")
struct SubscriptionOrderTests {
    @Test("a page change made right after updates() returns arrives exactly once")
    func pageChangeAfterSubscribeArrivesOnce() async throws {
        try await withDocument("subscribe-page") { _, document in
            let page = try await document.page(at: 0)
            for round in 0..<40 {
                let stream = page.updates()
                let first = try stroke(3, x0: Double(round)), second = try stroke(3, x0: Double(round) + 0.5)
                _ = try await page.append(.stroke(first))  // after the subscription, before any read
                var updates = stream.makeAsyncIterator()
                let initial = try #require(await updates.next())
                var seen = initial.state.elements.filter { $0.id == first.id }.count
                if seen == 0 {
                    let next = try #require(await updates.next())
                    #expect(next.changes == [.append(.stroke(first))])
                    seen += 1
                }
                _ = try await page.append(.stroke(second))
                let after = try #require(await updates.next())
                #expect(after.changes == [.append(.stroke(second))], "round \(round): the first append came twice")
                #expect(seen == 1)
            }
        }
    }

    @Test("a document change made right after updates() returns arrives exactly once")
    func documentChangeAfterSubscribeArrivesOnce() async throws {
        try await withDocument("subscribe-document") { _, document in
            for round in 0..<40 {
                let stream = document.updates()
                try await document.setTitle("title \(round)")
                var updates = stream.makeAsyncIterator()
                let initial = try #require(await updates.next())
                if initial.title != "title \(round)" {
                    let next = try #require(await updates.next())
                    #expect(next.title == "title \(round)")
                }
                try await document.setTitle("again \(round)")
                let after = try #require(await updates.next())
                #expect(after.title == "again \(round)", "round \(round): the first change came twice")
            }
        }
    }

    @Test("a subscription to a closed page ends at once")
    func closedPageSubscriptionEnds() async throws {
        try await withDocument("subscribe-closed") { _, document in
            let page = try await document.page(at: 0)
            try await page.close()
            var updates = page.updates().makeAsyncIterator()
            #expect(await updates.next() == nil)
        }
    }
}
