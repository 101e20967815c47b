package import PlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The listening sockets systemd passed to this process, as `sd_listen_fds_with_names(3)`
/// describes them.
///
/// systemd sets `LISTEN_PID` (this process), `LISTEN_FDS` (how many descriptors, starting at
/// 3) and `LISTEN_FDNAMES` (their `FileDescriptorName=`, colon-separated). The variables are
/// read once and unset, so that child processes do not believe the sockets are theirs.
package struct SocketActivation: Hashable, Sendable {
    /// One passed descriptor and its name.
    package struct Socket: Hashable, Sendable {
        package var descriptor: Int32
        /// The unit's `FileDescriptorName=`, or "unknown" when systemd gave none.
        package var name: String
    }

    /// `SD_LISTEN_FDS_START`: the first passed descriptor.
    package static let firstDescriptor: Int32 = 3

    /// The passed sockets, in order; empty when the process was not socket-activated.
    package var sockets: [Socket]

    package init(sockets: [Socket]) { self.sockets = sockets }

    /// The first socket named `name`.
    package func socket(named name: String) -> Socket? { sockets.first { $0.name == name } }

    /// The listener for the socket named `name` (`json`, `mtsics`), if systemd passed one.
    package func endpoint(named name: String) -> ListenerEndpoint? {
        socket(named: name).map { .passedDescriptor($0.descriptor, name: $0.name) }
    }

    /// Reads the process environment, marks the descriptors close-on-exec and unsets the
    /// variables (as `sd_listen_fds(1)` does).
    /// - Throws: ``SystemError`` `.invalidEnvironment` naming the variable that is malformed.
    package static func fromProcessEnvironment() throws(SystemError) -> SocketActivation {
        var environment: [String: String] = [:]
        for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] {
            if let value = getenv(name) { environment[name] = String(cString: value) }
        }
        defer { for name in ["LISTEN_PID", "LISTEN_FDS", "LISTEN_FDNAMES"] { unsetenv(name) } }
        return try parse(environment: environment, processID: getpid())
    }

    /// Parses the `LISTEN_*` variables and marks the descriptors close-on-exec.
    ///
    /// - Parameters:
    ///   - firstDescriptor: Always 3 in production; tests place descriptors higher, where no
    ///     other part of the test process keeps its own.
    /// - Throws: ``SystemError`` `.invalidEnvironment` naming the variable that is malformed.
    static func parse(
        environment: [String: String], processID: pid_t, firstDescriptor: Int32 = SocketActivation.firstDescriptor
    ) throws(SystemError) -> SocketActivation {
        guard let pidText = environment["LISTEN_PID"] else {
            // Not socket-activated; LISTEN_FDS alone is a leftover of someone else's.
            return SocketActivation(sockets: [])
        }
        guard let pid = pid_t(pidText), pid > 0 else {
            throw invalid("LISTEN_PID", pidText, "it must be a process ID")
        }
        guard pid == processID else {
            // The sockets were meant for another process (a parent that did not unset them).
            return SocketActivation(sockets: [])
        }
        guard let countText = environment["LISTEN_FDS"] else {
            throw invalid("LISTEN_FDS", "", "LISTEN_PID is set, so LISTEN_FDS must say how many sockets were passed")
        }
        guard let count = Int32(countText), count >= 0, count <= 4096 - firstDescriptor else {
            throw invalid("LISTEN_FDS", countText, "it must be a small non-negative number")
        }
        var names = environment["LISTEN_FDNAMES"].map {
            $0.split(separator: ":", omittingEmptySubsequences: false).map(String.init)
        }
        if let given = names, given.count != Int(count) {
            if count == 0, given == [""] {
                names = []
            } else {
                throw invalid(
                    "LISTEN_FDNAMES", environment["LISTEN_FDNAMES"] ?? "",
                    "it names \(given.count) sockets but LISTEN_FDS is \(count)")
            }
        }
        var sockets: [Socket] = []
        for index in 0..<count {
            let descriptor = firstDescriptor + index
            let flags = fcntl(descriptor, F_GETFD)
            guard flags >= 0, fcntl(descriptor, F_SETFD, flags | FD_CLOEXEC) == 0 else {
                throw SystemError(
                    .invalidEnvironment, operation: "taking over passed socket", subject: "fd \(descriptor)",
                    errno: .current,
                    hint:
                        "LISTEN_FDS=\(count) promises descriptors \(firstDescriptor)…\(firstDescriptor + count - 1); "
                        + "check the .socket unit"
                )
            }
            sockets.append(Socket(descriptor: descriptor, name: names?[Int(index)] ?? "unknown"))
        }
        return SocketActivation(sockets: sockets)
    }

    /// A warning for each passed socket bound to a network address other than loopback.
    ///
    /// plumscaled's TCP is meant for `127.0.0.1` or `::1` only (TCP carries no credentials and
    /// is read-only, but weights and device names are still nobody else's business). The daemon
    /// binds its own TCP listener only there; a `.socket` unit with `ListenStream=4000` or
    /// `0.0.0.0:4000` would pass one open to the network, and `getsockname` tells.
    package func exposureWarnings() -> [String] {
        sockets.compactMap { socket in
            guard let address = Self.networkAddress(of: socket.descriptor), !address.loopback else { return nil }
            return
                "systemd passed socket '\(socket.name)' (fd \(socket.descriptor)) bound to \(address.text), "
                + "not to loopback: other machines may connect to it; plumscaled's TCP is meant for loopback "
                + "only, so set ListenStream=127.0.0.1:\(address.port) (or [::1]:\(address.port)) in the .socket unit"
        }
    }

    /// The IPv4 or IPv6 address `descriptor` is bound to, printable, and whether it is loopback;
    /// nil for a Unix socket or when the kernel will not say.
    static func networkAddress(of descriptor: Int32) -> (text: String, port: UInt16, loopback: Bool)? {
        guard case .success(let address?) = InternetSocketAddress.local(of: descriptor) else { return nil }
        return (address.description, address.port, address.isLoopback)
    }

    private static func invalid(_ variable: String, _ value: String, _ detail: String) -> SystemError {
        SystemError(
            .invalidEnvironment, operation: "reading", subject: "\(variable)=\"\(value)\"", detail: detail,
            hint: "start plumscaled from plumscaled.socket or without the LISTEN_* variables")
    }
}
