/// A test fixture could not do its part: what it tried and what it saw, for the test's log.
public struct FixtureError: Error, CustomStringConvertible, Sendable {
    public var description: String
    public init(_ description: String) { self.description = description }
}
