package import PlumSettings

/// Where a listener from `[daemon]` (`tcp`, `mtsics`) accepts clients: a Unix socket or a
/// loopback TCP port, checked when the file is read.
///
/// Equality ignores ``position``: moving a line in the file does not change the listener, so a
/// reload must not report it as a change.
package struct ListenerAddress: Hashable, Sendable, CustomStringConvertible {
    package enum Endpoint: Hashable, Sendable {
        /// A Unix socket at an absolute path.
        case unixSocket(path: String)
        /// A TCP port on 127.0.0.1, ::1 or localhost (written `[::1]:7450` in the file).
        case loopback(host: String, port: Int)
    }

    package var endpoint: Endpoint
    /// The file and line the key was written on.
    package var position: SourcePosition

    package init(_ endpoint: Endpoint, position: SourcePosition = SourcePosition(file: "<built-in>")) {
        self.endpoint = endpoint
        self.position = position
    }

    /// As written in the file: the path, or `host:port` with an IPv6 host in brackets.
    package var description: String {
        switch endpoint {
        case .unixSocket(let path): path
        case .loopback(let host, let port): host.contains(Character(":")) ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    package static func == (lhs: ListenerAddress, rhs: ListenerAddress) -> Bool { lhs.endpoint == rhs.endpoint }
    package func hash(into hasher: inout Hasher) { hasher.combine(endpoint) }
}
