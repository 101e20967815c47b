internal import PlumSystem

/// Where a listener accepts connections.
package enum ListenerEndpoint: Hashable, Sendable, CustomStringConvertible {
    /// A Unix socket the daemon binds itself, following ``UnixSocketPath``'s rules; `group`
    /// receives the socket (mode 0660) when given.
    case unixSocket(path: String, group: String? = nil)
    /// A listening socket passed by systemd (see ``SocketActivation``).
    case passedDescriptor(Int32, name: String)
    /// A TCP port on the loopback interface: `host` must be 127.0.0.1, ::1 or localhost.
    /// Port 0 picks a free port (see ``SocketServer/boundAddresses``).
    case loopbackTCP(host: String, port: Int)

    package var description: String {
        switch self {
        case .unixSocket(let path, _): path
        case .passedDescriptor(let descriptor, let name): "systemd socket '\(name)' (fd \(descriptor))"
        case .loopbackTCP(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        }
    }

    /// Refuses a TCP address other than loopback: the protocol has no authentication, so it
    /// must not be reachable from the network.
    func validate() throws(SystemError) {
        guard case .loopbackTCP(let host, let port) = self else { return }
        guard ["127.0.0.1", "::1", "localhost"].contains(host) else {
            throw SystemError(
                .invalidConfiguration, operation: "listening on", subject: "\(host):\(port)",
                detail: "only loopback addresses are allowed, because the protocol has no authentication",
                hint: "use 127.0.0.1 or ::1, and reach the Pi through ssh -L if you need it remotely")
        }
        guard (0...65535).contains(port) else {
            throw SystemError(
                .invalidConfiguration, operation: "listening on", subject: "\(host):\(port)",
                detail: "a TCP port is 0…65535", hint: "choose a port such as 4001")
        }
    }
}
