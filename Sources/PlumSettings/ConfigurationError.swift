/// A configuration file that cannot be used, said so that the user can fix it.
///
/// It names the file, the line where known, the key and what is allowed:
///
/// /etc/plumscale/plumscale.toml:14: sensor "left": gain = 100 is not allowed; use 128 or 64 (channel A) or 32 (channel
/// B)
package struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file, or "<built-in>" for configuration made in code.
    package var file: String
    /// The 1-based line of the offending key or table, when it could be found.
    package var line: Int?
    /// The key path, such as `sensor "left".gain` or `scale.division_grams`.
    package var key: String
    /// What is wrong and what is allowed.
    package var message: String

    package init(file: String, line: Int? = nil, key: String, message: String) {
        self.file = file
        self.line = line
        self.key = key
        self.message = message
    }

    package var description: String {
        let place = line.map { "\(file):\($0)" } ?? file
        return key.isEmpty ? "\(place): \(message)" : "\(place): \(key): \(message)"
    }
}
