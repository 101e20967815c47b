/// Something plumscale-web cannot do, said so that the user can fix it.
package struct WebError: Error, Hashable, Sendable, CustomStringConvertible {
    package var message: String

    package init(_ message: String) { self.message = message }

    package var description: String { message }
}
