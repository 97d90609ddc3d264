#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// True when `a` and `b` hold the same bytes: one `memcmp`, where a generic `elementsEqual`
/// walks two slices a byte at a time (about 1 ns a byte: 2 ms for a 2,000-stroke page).
@inline(never)
package func bytesEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in
            guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
            return memcmp(p, q, x.count) == 0
        }
    }
}
