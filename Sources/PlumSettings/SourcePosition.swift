/// Where in the configuration a value was written: the file and, when known, the line.
///
/// Carried by values that are used long after parsing (a listener bound at start, a sensor
/// opened later), so an error then can still point at the line to fix.
package struct SourcePosition: Hashable, Sendable, CustomStringConvertible {
    /// The file, or "<built-in>" for configuration made in code.
    package var file: String
    /// The 1-based line, when it could be found.
    package var line: Int?

    package init(file: String, line: Int? = nil) {
        self.file = file
        self.line = line
    }

    /// `file:line`, or the file alone.
    package var description: String { line.map { "\(file):\($0)" } ?? file }
}
