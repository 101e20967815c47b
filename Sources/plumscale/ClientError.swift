import ArgumentParser

#if canImport(Glibc)
import Glibc
#endif

/// A client command's failure, in the words of the person at the scale, with its exit code.
struct ClientError: Error, CustomStringConvertible {
    enum Kind {
        /// The daemon cannot be reached: not running, no permission, or it went away.
        case daemon
        /// The daemon refused: not stable, outside the zero range, a degenerate fit, not permitted.
        case refused
        /// The sensor named does not exist; the message lists the ones that do.
        case unknownSensor
        /// The command line asks for something impossible.
        case usage
    }

    var kind: Kind
    var message: String

    init(_ kind: Kind, _ message: String) {
        self.kind = kind
        self.message = message
    }

    var description: String { message }

    var exitCode: ExitCode {
        switch kind {
        case .daemon: ExitStatus.noDaemon
        case .refused: ExitStatus.refused
        case .unknownSensor: ExitStatus.unknownSensor
        case .usage: ExitCode.validationFailure
        }
    }

    /// Why `connect(2)` to `path` failed, and what to do about it.
    static func connecting(_ path: String, errno error: Int32) -> ClientError {
        let reason = String(cString: strerror(error))
        switch error {
        case ENOENT, ECONNREFUSED:
            return ClientError(.daemon, """
                plumscaled is not running at \(path) (\(reason)). Start it with \
                'sudo systemctl start plumscaled.socket', or try it without hardware with \
                'plumscaled --simulate'; if it listens elsewhere, pass --socket PATH or set PLUMSCALE_SOCKET.
                """)
        case EACCES, EPERM:
            var status = stat()
            var group = "plumscale"
            if stat(path, &status) == 0, let entry = getgrgid(status.st_gid) { group = String(cString: entry.pointee.gr_name) }
            return ClientError(.daemon, """
                permission denied opening \(path): the socket is for group '\(group)'. Join it with \
                'sudo usermod -aG \(group) $USER', then log out and in again.
                """)
        default:
            return ClientError(.daemon, "connecting to \(path): \(reason)")
        }
    }

    /// The daemon went away in the middle of a conversation.
    static func lost(_ path: String, detail: String) -> ClientError {
        ClientError(.daemon, "lost the connection to plumscaled at \(path): \(detail)")
    }

    /// An ERROR line from the daemon.
    static func fromDaemon(_ message: String) -> ClientError {
        if message.contains("unknown sensor") { return ClientError(.unknownSensor, message) }
        return ClientError(.refused, message)
    }
}

/// Where the daemon's socket is: `--socket`, else `PLUMSCALE_SOCKET`, else the system daemon's
/// `/run/plumscale/plumscale.sock`, else the per-user path a daemon run by hand uses.
enum SocketLocator {
    static let systemPath = "/run/plumscale/plumscale.sock"

    static func resolve(_ option: String?) -> String {
        if let option { return option }
        if let variable = getenv("PLUMSCALE_SOCKET"), variable.pointee != 0 { return String(cString: variable) }
        let candidates = defaultCandidates()
        return candidates.first { access($0, F_OK) == 0 } ?? candidates[0]
    }

    /// The same search order as the daemon's default (`UnixSocketPath.defaultPath`), system first.
    static func defaultCandidates() -> [String] {
        var paths = [systemPath]
        if let runtime = getenv("XDG_RUNTIME_DIR").map({ String(cString: $0) }), runtime.hasPrefix("/") {
            paths.append("\(runtime)/plumscale/plumscale.sock")
        }
        paths.append("/tmp/plumscale-\(getuid())/plumscale.sock")
        return paths
    }
}
