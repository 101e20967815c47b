/// Something plumscale-web cannot do, said so that the user can fix it.
public struct WebError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
