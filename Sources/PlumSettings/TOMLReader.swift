package import TOMLKit

/// Reads typed values out of one TOML table, turning every mismatch into a
/// ``ConfigurationError`` that names the file, the line, the key and what is allowed.
///
/// It also remembers which keys were read, so that ``rejectUnknownKeys()`` can catch typos
/// (`gian = 128`) instead of silently ignoring them.
package struct TOMLReader {
    package let table: TOMLTable
    package let file: String
    /// The prefix for key paths in messages, such as `sensor "left"`.
    package let path: String
    package let locator: SourceLocator
    /// Index of the table in the source for line lookup (the n-th `[[sensor]]`), if any.
    package let section: SourceLocator.Section
    package private(set) var readKeys: Set<String> = []
    /// Values for keys the table leaves out: a sensor profile's wiring defaults.
    package var defaults: [String: any TOMLValueConvertible] = [:]

    package init(table: TOMLTable, file: String, path: String, locator: SourceLocator, section: SourceLocator.Section) {
        self.table = table
        self.file = file
        self.path = path
        self.locator = locator
        self.section = section
    }

    package func error(_ key: String?, _ message: String) -> ConfigurationError {
        let line = key.flatMap { locator.line(ofKey: $0, in: section) } ?? locator.line(of: section)
        let keyPath = [path, key ?? ""].filter { !$0.isEmpty }.joined(separator: path.isEmpty ? "" : ".")
        return ConfigurationError(file: file, line: line, key: keyPath, message: message)
    }

    /// The file and line `key` was written on, for values used after parsing.
    package func position(of key: String) -> SourcePosition {
        SourcePosition(file: file, line: locator.line(ofKey: key, in: section) ?? locator.line(of: section))
    }

    package func has(_ key: String) -> Bool { table[key] != nil }

    /// The table's value for `key`, else the default for it.
    private func value(_ key: String) -> (any TOMLValueConvertible)? { table[key] ?? defaults[key] }

    /// Marks keys handled by the caller itself (nested tables) as known.
    package mutating func markKnown(_ keys: [String]) { readKeys.formUnion(keys) }

    package mutating func string(_ key: String) throws(ConfigurationError) -> String? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        guard let text = value.string else {
            throw error(key, "expected a string in quotes, found \(describe(value))")
        }
        return text
    }

    package mutating func requiredString(_ key: String, example: String) throws(ConfigurationError) -> String {
        guard let text = try string(key) else {
            throw error(nil, "missing key \(key); for example \(key) = \(example)")
        }
        return text
    }

    package mutating func int(_ key: String) throws(ConfigurationError) -> Int? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        guard let number = value.int else {
            throw error(key, "expected a whole number, found \(describe(value))")
        }
        return number
    }

    package mutating func double(_ key: String) throws(ConfigurationError) -> Double? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        if let number = value.double { return number }
        if let number = value.int { return Double(number) }
        throw error(key, "expected a number, found \(describe(value))")
    }

    package mutating func bool(_ key: String) throws(ConfigurationError) -> Bool? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        guard let flag = value.bool else {
            throw error(key, "expected true or false, found \(describe(value))")
        }
        return flag
    }

    /// An array of strings, such as `sensors = ["left", "right"]`.
    package mutating func strings(_ key: String) throws(ConfigurationError) -> [String]? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        guard let array = value.array else {
            throw error(key, "expected a list of names in quotes, such as [\"left\"], found \(describe(value))")
        }
        var strings: [String] = []
        for index in 0..<array.count {
            guard let text = array[index].string else {
                throw error(key, "expected a list of names in quotes, such as [\"left\"]; item \(index + 1) is not one")
            }
            strings.append(text)
        }
        return strings
    }

    /// A value that may be written as a string or a whole number, such as a GPIO line
    /// (`dout = "GPIO5"` or `dout = 5`) or an I2C bus (`bus = 1` or `bus = "i2c-1"`).
    package mutating func stringOrInt(_ key: String) throws(ConfigurationError) -> String? {
        readKeys.insert(key)
        guard let value = value(key) else { return nil }
        if let text = value.string { return text }
        if let number = value.int { return String(number) }
        throw error(key, "expected a name in quotes or a whole number, found \(describe(value))")
    }

    /// A number that must lie in `range`.
    package mutating func double(_ key: String, in range: ClosedRange<Double>, unit: String) throws(ConfigurationError)
        -> Double?
    {
        guard let value = try double(key) else { return nil }
        guard range.contains(value), value.isFinite else {
            throw error(
                key, "\(key) = \(value) is out of range; use \(range.lowerBound) to \(range.upperBound) \(unit)")
        }
        return value
    }

    package mutating func int(_ key: String, in range: ClosedRange<Int>, unit: String) throws(ConfigurationError)
        -> Int?
    {
        guard let value = try int(key) else { return nil }
        guard range.contains(value) else {
            throw error(
                key, "\(key) = \(value) is out of range; use \(range.lowerBound) to \(range.upperBound) \(unit)")
        }
        return value
    }

    /// A value that must be one of `allowed`.
    package mutating func choice<T>(_ key: String, _ allowed: [(String, T)]) throws(ConfigurationError) -> T? {
        guard let text = try stringOrInt(key) else { return nil }
        if let match = allowed.first(where: { $0.0.lowercased() == text.lowercased() }) { return match.1 }
        let names = allowed.map { $0.0 }
        throw error(key, "\(key) = \(text) is not allowed; use \(Self.list(names))")
    }

    /// Throws for the first key that was never read: almost always a typo.
    package func rejectUnknownKeys(allowed extra: Set<String> = []) throws(ConfigurationError) {
        let known = readKeys.union(extra)
        for key in table.keys.sorted() where !known.contains(key) {
            throw error(key, "unknown key \(key); allowed here: \(known.sorted().joined(separator: ", "))")
        }
    }

    package static func list(_ names: [String]) -> String {
        switch names.count {
        case 0: return "nothing"
        case 1: return names[0]
        default: return names.dropLast().joined(separator: ", ") + " or " + names.last!
        }
    }

    private func describe(_ value: TOMLValueConvertible) -> String {
        switch value.type {
        case .string: return "the string \"\(value.string ?? "")\""
        case .int: return "the number \(value.int ?? 0)"
        case .double: return "the number \(value.double ?? 0)"
        case .bool: return "\(value.bool ?? false)"
        case .table: return "a table"
        case .array: return "a list"
        default: return "a \(value.type)"
        }
    }
}
