#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A JSON value for the conformance manifest (Spec/README.md): parsed with `JSONDecoder`,
/// written by `serialized` in one fixed layout so that regenerating gives the same bytes.
///
/// Cost: O(size). Integers are kept exact (`int` for values that fit Int64, `uint` above).
package enum JSONValue: Equatable, Sendable, Decodable {
    case null
    case bool(Bool)
    case int(Int64)
    case uint(UInt64)
    case double(Double)
    case string(String)
    case array([JSONValue])
    /// Keys in insertion order; `serialized` writes them in that order.
    case object([(String, JSONValue)])

    package static func == (l: JSONValue, r: JSONValue) -> Bool {
        switch (l, r) {
        case (.null, .null): return true
        case (.bool(let a), .bool(let b)): return a == b
        case (.string(let a), .string(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            // Objects compare as maps: key order does not matter.
            guard a.count == b.count else { return false }
            for (k, v) in a { guard let w = r[k], w == v else { return false } }
            return true
        default:
            if let a = l.integer, let b = r.integer { return a == b }
            if let a = l.number, let b = r.number { return a == b }
            return false
        }
    }

    package init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var items: [JSONValue] = []
            while !array.isAtEnd { items.append(try array.decode(JSONValue.self)) }
            self = .array(items)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var pairs: [(String, JSONValue)] = []
            for key in object.allKeys.sorted(by: { $0.stringValue < $1.stringValue }) {
                pairs.append((key.stringValue, try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(pairs)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let b = try? single.decode(Bool.self) {
            self = .bool(b)
        } else if let i = try? single.decode(Int64.self) {
            self = .int(i)
        } else if let u = try? single.decode(UInt64.self) {
            self = .uint(u)
        } else if let d = try? single.decode(Double.self) {
            self = .double(d)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Parses JSON text; nil when it does not parse.
    package static func parse(_ bytes: [UInt8]) -> JSONValue? {
        try? JSONDecoder().decode(JSONValue.self, from: Data(bytes))
    }

    /// The member `key` of an object, else nil.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let pairs) = self else { return nil }
        return pairs.first { $0.0 == key }?.1
    }

    /// The value as an exact integer (an integral double counts), else nil.
    package var integer: Int64? {
        switch self {
        case .int(let i): return i
        case .uint(let u): return Int64(exactly: u)
        case .double(let d): return Int64(exactly: d)
        default: return nil
        }
    }

    package var uint64: UInt64? {
        switch self {
        case .int(let i): return UInt64(exactly: i)
        case .uint(let u): return u
        case .double(let d): return UInt64(exactly: d)
        default: return nil
        }
    }

    var number: Double? {
        switch self {
        case .int(let i): return Double(i)
        case .uint(let u): return Double(u)
        case .double(let d): return d
        default: return nil
        }
    }

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }

    /// Compact JSON text (no spaces), keys in stored order.
    package var compact: String {
        switch self {
        case .null: return "null"
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .uint(let u): return String(u)
        case .double(let d): return d.isFinite ? "\(d)" : "null"
        case .string(let s): return Self.quoted(s)
        case .array(let items): return "[" + items.map(\.compact).joined(separator: ",") + "]"
        case .object(let pairs):
            return "{" + pairs.map { Self.quoted($0.0) + ":" + $0.1.compact }.joined(separator: ",") + "}"
        }
    }

    static func quoted(_ s: String) -> String {
        var out = "\""
        for u in s.unicodeScalars {
            switch u {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\t": out += "\\t"
            case "\r": out += "\\r"
            default:
                if u.value < 0x20 {
                    let hex = String(u.value, radix: 16)
                    out += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    out.unicodeScalars.append(u)
                }
            }
        }
        return out + "\""
    }

    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

extension JSONValue: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByBooleanLiteral,
    ExpressibleByArrayLiteral, ExpressibleByNilLiteral
{
    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int64) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }
    package init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    package init(nilLiteral: ()) { self = .null }
}

extension JSONValue {
    init(_ i: Int) { self = .int(Int64(i)) }
    init(_ u: UInt64) { self = Int64(exactly: u).map { .int($0) } ?? .uint(u) }
}
