/// The engine's sorts of names. Each `sorted()` or `sorted(by:)` on its own element type, or
/// with its own comparison closure, is a separate 4-6 KB copy of the standard library's sort in
/// the binary an app ships; the engine's sorts of file names, conflict copies and page ids all
/// sort strings here instead (sort keys built by the caller), one copy in all.

/// `names` in ascending order.
@inline(never)
package func sortedNames(_ names: [String]) -> [String] {
    names.sorted()
}
