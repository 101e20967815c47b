#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The one rule for where plumscaled's JSON socket is by default: the daemon binds where the
/// clients look. PlumClient's `DaemonSocket` searches these paths; plumscaled binds the one
/// ``binding(environment:userID:)`` names, without linking the client library.
public enum DaemonSocketPath {
    /// The system daemon's socket (`RuntimeDirectory=plumscale` under systemd).
    public static let system = "/run/plumscale/plumscale.sock"

    /// The default paths, most likely first: the system daemon's, then the per-user ones
    /// (`$XDG_RUNTIME_DIR/plumscale/plumscale.sock`, else the private `/tmp/plumscale-<uid>`).
    /// - Parameter environment: the environment to read; nil reads the process's own.
    public static func candidates(environment: [String: String]? = nil, userID: UInt32) -> [String] {
        var paths = [system]
        let runtime = environment.map { $0["XDG_RUNTIME_DIR"] } ?? getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }
        if let runtime, runtime.hasPrefix("/") {
            paths.append("\(runtime)/plumscale/plumscale.sock")
        }
        paths.append("\(PrivateSocketDirectory.path(userID: userID))/plumscale.sock")
        return paths
    }

    /// Where plumscaled binds when no socket is configured: `$RUNTIME_DIRECTORY/plumscale.sock`
    /// under systemd (`RuntimeDirectory=plumscale`; the first of several), ``system`` for root,
    /// else the user's first candidate after the system path.
    public static func binding(environment: [String: String], userID: UInt32) -> String {
        // RuntimeDirectory= may list several directories, separated by colons.
        if let runtime = environment["RUNTIME_DIRECTORY"]?.split(separator: ":").first, !runtime.isEmpty {
            return "\(runtime)/plumscale.sock"
        }
        let paths = candidates(environment: environment, userID: userID)
        return userID == 0 ? paths[0] : paths[1]
    }
}
