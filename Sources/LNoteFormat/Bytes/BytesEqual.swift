import CLNoteFormat

/// True when `a` and `b` hold the same bytes: one `memcmp`, where a generic `elementsEqual`
/// walks two slices a byte at a time (about 1 ns a byte: 2 ms for a 2,000-stroke page).
@inline(never)
package func bytesEqual(_ a: ArraySlice<UInt8>, _ b: ArraySlice<UInt8>) -> Bool {
    guard a.count == b.count else { return false }
    return a.withUnsafeBytes { x in
        b.withUnsafeBytes { y in
            guard let p = x.baseAddress, let q = y.baseAddress else { return x.count == y.count }
            return p == q || lnote_bytes_equal(p, q, x.count) != 0
        }
    }
}

extension ByteReader {
    /// True when the bytes from `offset` to the end are exactly `other`'s (one `memcmp`).
    @_optimize(speed) package func restEquals(_ other: ArraySlice<UInt8>) -> Bool {
        guard offset >= 0, remaining == other.count else { return false }
        return other.withUnsafeBytes { y in
            guard let q = y.baseAddress, let p = bytes.baseAddress else { return y.count == 0 }
            return lnote_bytes_equal(p + offset, q, y.count) != 0
        }
    }
}

/// True when the `count` bytes at `a` and `b` are equal (one `memcmp`).
@inline(__always)
package func bytesEqual(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, count: Int) -> Bool {
    count <= 0 || lnote_bytes_equal(a, b, count) != 0
}
