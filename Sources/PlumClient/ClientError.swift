internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Why talking to plumscaled failed, in words a person at the scale can act on.
///
/// ``message`` names the socket and says what to do (start the daemon, join a group, pass
/// `--socket`); ``code`` lets a program decide, and ``errno`` keeps the system's own answer.
public struct ClientError: Error, Hashable, Sendable, CustomStringConvertible {
    public enum Code: Hashable, Sendable {
        /// The socket path cannot be a Unix socket address (empty or too long).
        case invalidPath
        /// Nothing listens at the path: the daemon is not running, or listens elsewhere.
        case noDaemon
        /// The socket is there but not ours to open.
        case permissionDenied
        /// Something answered that is not plumscaled, or plumscaled turned the connection away.
        case notPlumscaled
        /// A line from the daemon is not a report this client can read.
        case malformedReport
        /// The daemon closed the connection, or a read or write on it failed.
        case connectionLost
        /// No answer within the time allowed.
        case timedOut
        /// The daemon answered with an ERROR report (a refused or malformed request).
        case daemonError
        /// A sensor named in the request does not exist; the message lists those that do.
        case unknownSensor
        /// A system call other than connect failed (socket, poll).
        case systemCall
    }

    public var code: Code
    /// The socket the client was talking to.
    public var socketPath: String
    /// The whole explanation, with what to do.
    public var message: String
    /// The system's error number, when a system call failed.
    public var errno: Int32?

    public init(_ code: Code, socketPath: String, _ message: String, errno: Int32? = nil) {
        self.code = code
        self.socketPath = socketPath
        self.message = message
        self.errno = errno
    }

    public var description: String { message }

    /// Why `connect(2)` to `path` failed, and what to do about it.
    static func connecting(_ path: String, errno error: Int32) -> ClientError {
        let reason = Errno(rawValue: error)
        switch error {
        case ENOENT, ECONNREFUSED:
            return ClientError(
                .noDaemon, socketPath: path,
                """
                plumscaled is not running at \(path) (\(reason.message), \(reason.name)). Start it with \
                'sudo systemctl start plumscaled.socket', or try it without hardware with \
                'plumscaled --simulate'; if it listens elsewhere, pass --socket PATH or set \
                \(DaemonSocket.environmentVariable).
                """, errno: error)
        case EACCES, EPERM:
            var status = stat()
            var group = "plumscale"
            if stat(path, &status) == 0, let entry = getgrgid(status.st_gid) {
                group = String(cString: entry.pointee.gr_name)
            }
            return ClientError(
                .permissionDenied, socketPath: path,
                """
                permission denied opening \(path): the socket is for group '\(group)'. Join it with \
                'sudo usermod -aG \(group) $USER', then log out and in again.
                """, errno: error)
        default:
            return ClientError(.systemCall, socketPath: path, "connecting to \(path): \(reason)", errno: error)
        }
    }

    /// The daemon went away in the middle of a conversation.
    static func lost(_ path: String, _ detail: String, errno: Int32? = nil) -> ClientError {
        ClientError(
            .connectionLost, socketPath: path, "lost the connection to plumscaled at \(path): \(detail)", errno: errno)
    }

    /// An ERROR report from the daemon.
    static func fromDaemon(_ path: String, _ message: String) -> ClientError {
        ClientError(message.contains("unknown sensor") ? .unknownSensor : .daemonError, socketPath: path, message)
    }
}
