/// A reason the bridge cannot start, said so the user can fix it.
public struct BridgeError: Error, Hashable, Sendable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
