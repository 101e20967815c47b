internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// Where plumscaled's JSON socket is: the one search every client uses.
///
/// In order: a path the user gave (`--socket`), then `$PLUMSCALE_SOCKET`, then the system
/// daemon's `/run/plumscale/plumscale.sock`, then the per-user paths a daemon run by hand
/// binds (`$XDG_RUNTIME_DIR/plumscale/plumscale.sock`, else `/tmp/plumscale-<uid>/plumscale.sock`),
/// the same rules as the daemon's own default. Among the defaults the first that exists wins;
/// when none exists the system path is named, so the error says where the daemon was expected.
public enum DaemonSocket {
    /// The environment variable that names the socket.
    public static let environmentVariable = "PLUMSCALE_SOCKET"
    /// The system daemon's socket (`RuntimeDirectory=plumscale` under systemd).
    public static let systemPath = DaemonSocketPath.system

    /// The socket to connect to.
    /// - Parameters:
    ///   - explicit: a path the user gave, such as `--socket`; it wins when not nil.
    ///   - environment: the environment to read; nil reads the process's own.
    ///   - userID: whose per-user path to look at.
    ///   - exists: whether a file is at a path (tests give their own).
    public static func path(
        explicit: String? = nil, environment: [String: String]? = nil, userID: UInt32 = getuid(),
        exists: (String) -> Bool = { access($0, F_OK) == 0 }
    ) -> String {
        if let explicit, !explicit.isEmpty { return explicit }
        let named =
            environment.map { $0[environmentVariable] }
            ?? getenv(environmentVariable).map { String(cString: $0) }
        if let named, !named.isEmpty { return named }
        let candidates = defaultCandidates(environment: environment, userID: userID)
        return candidates.first(where: exists) ?? candidates[0]
    }

    /// The default paths, most likely first: the system daemon's, then the per-user one
    /// (``DaemonSocketPath``, the rule plumscaled binds by).
    public static func defaultCandidates(environment: [String: String]? = nil, userID: UInt32 = getuid()) -> [String] {
        DaemonSocketPath.candidates(environment: environment, userID: userID)
    }

    /// The last-resort per-user directory, in world-writable `/tmp`.
    public static func perUserDirectory(userID: UInt32 = getuid()) -> String {
        PrivateSocketDirectory.path(userID: userID)
    }

    /// Refuses a socket in `privateDirectory` (the per-user `/tmp` fallback) unless that is a
    /// real directory owned by `userID` with mode 0700 (``PrivateSocketDirectory``): anyone may
    /// create it first in `/tmp`, or plant a symlink, and would then receive this client's
    /// requests. The daemon checks the same before binding there. An absent directory passes:
    /// connecting then says no daemon runs.
    /// - Throws: ``ClientError`` `.permissionDenied` naming the directory, its owner and mode,
    ///   and what to do.
    public static func checkDirectory(
        of path: String, userID: UInt32 = getuid(), privateDirectory: String? = nil
    ) throws(ClientError) {
        let directory = privateDirectory ?? perUserDirectory(userID: userID)
        let components = { (path: String) in path.split(separator: "/", omittingEmptySubsequences: true) }
        guard components(path).dropLast().elementsEqual(components(directory)) else { return }
        guard case .untrusted(let problem, let remedy) = PrivateSocketDirectory.inspect(directory, userID: userID)
        else { return }
        throw ClientError(
            .permissionDenied, socketPath: path,
            """
            refusing to connect to \(path): \(directory) is not your private directory, \(problem); \
            \(remedy), or set XDG_RUNTIME_DIR or pass --socket PATH.
            """)
    }
}
