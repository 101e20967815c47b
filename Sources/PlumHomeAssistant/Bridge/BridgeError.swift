/// A reason the bridge cannot start, said so the user can fix it.
package struct BridgeError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String
    package init(_ message: String) { self.message = message }
    package var description: String { message }
}
