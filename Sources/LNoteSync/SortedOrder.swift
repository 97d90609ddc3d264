// The merge's sort by keys: one copy of the standard library's sort of indices, as
// `sortedNames` is the engine's one sort of names.

/// The indices of `keys` in ascending order of their key; equal keys keep their index order.
@inline(never)
package func sortedOrder(of keys: [String]) -> [Int] {
    keys.indices.sorted { (keys[$0], $0) < (keys[$1], $1) }
}
