/// Why a name is not a Unix socket address, naming the name and the limit.
package struct UnixSocketAddressError: Error, Equatable, Sendable, CustomStringConvertible {
    package enum Reason: Equatable, Sendable {
        /// Nothing to name a socket by.
        case empty
        /// More bytes than `sun_path` holds (``UnixSocketAddress/maximumNameLength``).
        case tooLong(bytes: Int)
        /// A NUL byte inside a path, which would end it early.
        case containsNUL
    }

    /// The name as given: a path, or `@` and an abstract name.
    package let name: String
    package let reason: Reason

    package init(name: String, reason: Reason) {
        self.name = name
        self.reason = reason
    }

    /// For example: `socket path /tmp/…/plumscale.sock is 131 bytes, longer than the 107 bytes
    /// a Unix socket address holds; use a shorter path`.
    package var description: String {
        let what = name.hasPrefix("@") ? "abstract socket name \(name)" : "socket path \(name)"
        switch reason {
        case .empty:
            return name.isEmpty ? "the socket path is empty; name a socket file" : "\(what) is empty after the '@'"
        case .tooLong(let bytes):
            return "\(what) is \(bytes) bytes, longer than the \(UnixSocketAddress.maximumNameLength) bytes "
                + "a Unix socket address holds; use a shorter path"
        case .containsNUL:
            return "\(what) contains a NUL byte, which would end it early; remove it"
        }
    }
}
