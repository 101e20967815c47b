/// A test fixture could not do its part: what it tried and what it saw, for the test's log.
package struct FixtureError: Error, CustomStringConvertible, Sendable {
    package var description: String
    package init(_ description: String) { self.description = description }
}
