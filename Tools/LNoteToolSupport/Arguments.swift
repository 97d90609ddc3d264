/// A tiny argument parser in swift-argument-parser's manner: options are consumed by name,
/// what remains are positionals, and anything unknown is a usage error. Words after `--` are
/// positionals whatever they look like (POSIX utility syntax, guideline 10): a path that
/// starts with `-` is given as `lnote fsck -- -notes`.
package struct Arguments {
    private var items: [String]
    /// The words after the first `--`.
    private var operands: [String] = []

    package init(_ items: [String]) {
        guard let end = items.firstIndex(of: "--") else { self.items = items; return }
        self.items = Array(items[..<end])
        operands = Array(items[(end + 1)...])
    }

    /// Removes `--name` (or a short alias) if present.
    package mutating func flag(_ names: String...) -> Bool {
        var found = false
        items.removeAll { item in
            if names.contains(item) { found = true; return true }
            return false
        }
        return found
    }

    /// Removes `--name VALUE` or `--name=VALUE` and returns the value.
    package mutating func option(_ names: String...) throws -> String? {
        var value: String?
        var i = 0
        while i < items.count {
            let item = items[i]
            if names.contains(item) {
                guard i + 1 < items.count else { throw UsageError("\(item) needs a value") }
                value = items[i + 1]
                items.removeSubrange(i...(i + 1))
                continue
            }
            if let name = names.first(where: { item.hasPrefix($0 + "=") }) {
                value = String(item.dropFirst(name.count + 1))
                items.remove(at: i)
                continue
            }
            i += 1
        }
        return value
    }

    package mutating func intOption(_ names: String..., range: ClosedRange<Int> = 0...Int.max) throws -> Int? {
        var copy = self
        var value: String?
        for name in names { if let v = try copy.option(name) { value = v } }
        self = copy
        guard let value else { return nil }
        guard let n = Int(value), range.contains(n) else {
            throw UsageError(
                "\(names[0]) expects a whole number in \(range.lowerBound)...\(range.upperBound), got '\(value)'")
        }
        return n
    }

    /// Every word not yet consumed, options included (for a command that hands them on).
    package mutating func remaining() -> [String] {
        defer { items.removeAll(); operands.removeAll() }
        return operands.isEmpty ? items : items + ["--"] + operands
    }

    /// The remaining positionals, those after `--` last; throws on any leftover `-x` / `--xyz`
    /// option before `--`.
    package mutating func positionals() throws -> [String] {
        if let unknown = items.first(where: { $0.hasPrefix("-") && $0 != "-" }) {
            throw UsageError(
                "unknown option '\(unknown)'"
                    + (unknown.count > 1 ? "; a path that starts with '-' goes after '--'" : ""))
        }
        defer { items.removeAll(); operands.removeAll() }
        return items + operands
    }
}

/// A command line the tool cannot act on: printed as `Error: ...` plus the usage line; exit 16.
package struct UsageError: Error, CustomStringConvertible {
    package var description: String
    package init(_ message: String) { description = message }
}

/// A failure while doing the work (I/O, damaged input the command can't handle): exit 8.
package struct OperationalError: Error, CustomStringConvertible {
    package var description: String
    package init(_ message: String) { description = message }
}
