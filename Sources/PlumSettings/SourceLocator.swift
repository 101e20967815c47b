/// Finds the line of a key or a table in TOML source text, so configuration errors can point
/// at the line to fix.
///
/// The TOML parser reports lines only for syntax errors; for a well-formed file with a wrong
/// value this scans the text: the n-th `[[sensor]]` header, then the first `key =` line after it
/// and before the next header. Quoted, dotted or inline-table keys may not be found, and then
/// the message names the table's line instead.
package struct SourceLocator: Sendable {
    /// A table in the source: a top-level `[name]` or the n-th `[[name]]` (0-based).
    package enum Section: Hashable, Sendable {
        case root
        case table(String)
        case arrayElement(String, index: Int)
    }

    private let lines: [Substring]

    package init(text: String) {
        lines = text.split(separator: "\n", omittingEmptySubsequences: false)
    }

    /// The 1-based line of a section's header (nil for the root or when not found).
    package func line(of section: Section) -> Int? {
        range(of: section).map { $0.header }.flatMap { $0 }
    }

    /// The 1-based line where `key` is assigned inside `section`.
    package func line(ofKey key: String, in section: Section) -> Int? {
        if section == .root,
            let index = lines.indices.first(where: {
                matches(header($0), "[\(key)]") || matches(header($0), "[[\(key)]]")
            })
        {
            return index + 1
        }
        guard let range = range(of: section) else { return nil }
        for index in range.body {
            let text = lines[index].drop(while: { $0 == " " || $0 == "\t" })
            guard text.hasPrefix(key) else { continue }
            let rest = text.dropFirst(key.count).drop(while: { $0 == " " || $0 == "\t" })
            if rest.hasPrefix("=") { return index + 1 }
        }
        return nil
    }

    private func header(_ index: Int) -> Substring? {
        let text = lines[index].drop(while: { $0 == " " || $0 == "\t" })
        return text.hasPrefix("[") ? text : nil
    }

    private func range(of section: Section) -> (header: Int?, body: Range<Int>)? {
        let start: Int
        let headerLine: Int?
        switch section {
        case .root:
            start = 0
            headerLine = nil
        case .table(let name):
            guard let index = lines.indices.first(where: { matches(header($0), "[\(name)]") }) else { return nil }
            start = index + 1
            headerLine = index + 1
        case .arrayElement(let name, let wanted):
            let indices = lines.indices.filter { matches(header($0), "[[\(name)]]") }
            guard wanted < indices.count else { return nil }
            start = indices[wanted] + 1
            headerLine = indices[wanted] + 1
        }
        let end = lines.indices.dropFirst(start).first(where: { header($0) != nil }) ?? lines.count
        return (headerLine, start..<max(start, end))
    }

    private func matches(_ header: Substring?, _ wanted: String) -> Bool {
        guard let header else { return false }
        let compact = header.filter { $0 != " " && $0 != "\t" }
        return compact.hasPrefix(wanted)
    }
}
