#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

extension Timestamp {
    /// Parses a D-020 timestamp (`2026-11-29T23:03:18.123Z`, fraction optional) to a `Date`;
    /// nil for anything else. Never traps.
    package static func date(from text: String) -> Date? {
        let u = Array(text.utf8)
        func number(_ from: Int, _ count: Int) -> Int64? {
            guard from + count <= u.count else { return nil }
            var v: Int64 = 0
            for c in u[from..<(from + count)] {
                guard (0x30...0x39).contains(c) else { return nil }
                v = v * 10 + Int64(c - 0x30)
            }
            return v
        }
        guard u.count >= 20, u[4] == 0x2D, u[7] == 0x2D, u[10] == 0x54, u[13] == 0x3A, u[16] == 0x3A, u.last == 0x5A,
            let y = number(0, 4), let m = number(5, 2), let d = number(8, 2), let h = number(11, 2),
            let mi = number(14, 2), let s = number(17, 2), (1...12).contains(m), (1...31).contains(d),
            h < 24, mi < 60, s < 61
        else { return nil }
        var ms: Int64 = 0
        if u.count > 20 {
            guard u[19] == 0x2E, u.count >= 22, let f = number(20, u.count - 21), u.count - 21 <= 9 else { return nil }
            var scale: Int64 = 1
            for _ in 0..<(u.count - 21) { scale *= 10 }
            ms = f * 1000 / scale
        }
        let days = daysFromCivil(y, m, d)
        let total = ((days * 24 + h) * 60 + mi) * 60 + s
        return Date(timeIntervalSince1970: Double(total) + Double(ms) / 1000)
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's algorithm).
    private static func daysFromCivil(_ y0: Int64, _ m: Int64, _ d: Int64) -> Int64 {
        let y = m <= 2 ? y0 - 1 : y0
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (m > 2 ? m - 3 : m + 9) + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }
}
