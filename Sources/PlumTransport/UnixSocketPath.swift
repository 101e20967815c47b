package import PlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The rules for the filesystem side of a listening Unix socket: what may be removed before
/// binding, and its mode and group after. (Where it goes by default is PlumSystem's
/// `DaemonSocketPath.binding`, the rule the clients' search uses too, so the two cannot drift apart.)
///
/// A socket file outlives a daemon that crashed, so a fresh start must remove it; but a path
/// that is not a socket, or a socket someone still listens on, belongs to someone else and is
/// never touched.
package enum UnixSocketPath {
    /// The last-resort directory of a daemon run by hand without `XDG_RUNTIME_DIR`
    /// (``PrivateSocketDirectory``), checked by ``securePrivateDirectory(_:userID:)`` before use.
    package static func perUserDirectory(userID: UInt32) -> String { PrivateSocketDirectory.path(userID: userID) }

    /// Makes sure `directory` is a real directory owned by `userID` with mode 0700, creating it
    /// so when absent (``PrivateSocketDirectory``).
    /// - Throws: ``SystemError`` `.untrustedDirectory` naming the directory, its owner and mode,
    ///   and what to do; `.systemCall` when it cannot be inspected or created.
    package static func securePrivateDirectory(_ directory: String, userID: UInt32) throws(SystemError) {
        var verdict = PrivateSocketDirectory.inspect(directory, userID: userID)
        if verdict == .absent {
            if mkdir(directory, 0o700) != 0 && Errno.current.rawValue != EEXIST {
                throw .systemCall("creating the socket directory", directory)
            }
            verdict = PrivateSocketDirectory.inspect(directory, userID: userID)
        }
        switch verdict {
        case .trusted:
            return
        case .untrusted(let problem, let remedy):
            throw SystemError(
                .untrustedDirectory, operation: "binding in", subject: directory, detail: problem,
                hint: "\(remedy), or set XDG_RUNTIME_DIR or configure another socket path")
        case .absent, .uninspectable:
            throw .systemCall("inspecting the socket directory", directory)
        }
    }

    /// Makes `path` ready for `bind(2)`: creates missing parent directories (mode 0755) and
    /// removes a stale socket left by a daemon that is gone.
    ///
    /// - Returns: the address to bind.
    /// - Throws: ``SystemError`` `.pathOccupied` when the path exists and is not a socket,
    ///   `.alreadyRunning` when a process accepts connections on it, `.systemCall` otherwise.
    ///   `.untrustedDirectory` when the socket goes in `privateDirectory` and that is not a 0700
    ///   directory of this user (see ``securePrivateDirectory(_:userID:)``).
    static func prepareForBinding(
        _ path: String, privateDirectory: String = perUserDirectory(userID: getuid())
    ) throws(SystemError) -> UnixSocketAddress {
        guard path.hasPrefix("/") else {
            throw SystemError(
                .invalidConfiguration, operation: "binding", subject: path,
                detail: "a socket path must be absolute", hint: "write it starting with '/'")
        }
        let address: UnixSocketAddress
        do {
            address = try UnixSocketAddress(path: path)
        } catch {
            throw SystemError(
                .invalidConfiguration, operation: "binding", subject: path,
                detail: "longer than \(UnixSocketAddress.maximumNameLength) bytes, the limit of a Unix socket address",
                hint: "choose a shorter path")
        }
        let components = { (path: String) in path.split(separator: "/", omittingEmptySubsequences: true) }
        if components(path).dropLast().elementsEqual(components(privateDirectory)) {
            try securePrivateDirectory(privateDirectory, userID: getuid())
        }
        try createDirectories(parentOf: path)

        var status = stat()
        if lstat(path, &status) != 0 {
            let error = Errno.current
            if error == .noSuchFileOrDirectory { return address }
            throw SystemError(.systemCall, operation: "inspecting", subject: path, errno: error)
        }
        guard status.st_mode & S_IFMT == S_IFSOCK else {
            throw SystemError(
                .pathOccupied, operation: "binding", subject: path,
                detail: "the path exists and is not a socket, so it is not ours to remove",
                hint: "move that file away or configure another socket path")
        }
        switch probe(address) {
        case .listening:
            throw SystemError(
                .alreadyRunning, operation: "binding", subject: path,
                detail: "another daemon is listening there",
                hint: "stop it (systemctl stop plumscaled) or configure another socket path")
        case .stale:
            if unlink(path) != 0 && Errno.current != .noSuchFileOrDirectory {
                throw .systemCall(
                    "removing the stale socket", path, hint: "remove it by hand or fix the directory's permissions")
            }
            return address
        case .failed(let error):
            throw SystemError(
                .systemCall, operation: "checking whether a daemon listens on", subject: path, errno: error,
                hint: "remove the socket by hand if no daemon uses it")
        }
    }

    /// Sets the socket's mode to 0660 and, when given, its group, so that exactly the group's
    /// members may connect.
    /// - Throws: ``SystemError`` when the group does not exist or the calls fail.
    package static func restrictAccess(_ path: String, group: String? = nil) throws(SystemError) {
        let mode: mode_t = 0o660
        if let group {
            guard let entry = getgrnam(group) else {
                throw SystemError(
                    .invalidConfiguration, operation: "giving the socket to group", subject: "'\(group)'",
                    detail: "no such group",
                    hint: "create it (see systemd/plumscale.sysusers) or configure another group")
            }
            if chown(path, uid_t.max, entry.pointee.gr_gid) != 0 {
                throw .systemCall(
                    "changing the group of", path, hint: "the daemon must be root or a member of '\(group)'")
            }
        }
        if chmod(path, mode) != 0 {
            throw .systemCall("changing the mode of", path)
        }
    }

    /// Removes the socket file at `path` on shutdown, if it is still a socket.
    static func removeSocket(_ path: String) {
        var status = stat()
        if lstat(path, &status) == 0, status.st_mode & S_IFMT == S_IFSOCK {
            unlink(path)
        }
    }

    enum Probe: Equatable {
        case listening, stale
        case failed(Errno)
    }

    /// Connects to the socket at `address` to learn whether a process is accepting on it.
    static func probe(_ address: UnixSocketAddress) -> Probe {
        let descriptor = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { return .failed(.current) }
        defer { close(descriptor) }
        let result = address.withSockaddr { connect(descriptor, $0, $1) }
        if result == 0 { return .listening }
        let error = Errno.current
        // ECONNREFUSED: the file is there and nobody accepts. EAGAIN: a listener whose backlog
        // is full, so somebody is there.
        if error.rawValue == ECONNREFUSED { return .stale }
        if error.rawValue == EAGAIN { return .listening }
        return .failed(error)
    }

    /// `mkdir -p` for the socket's directory, mode 0755 so clients can reach the socket (whose
    /// own mode decides who may connect).
    static func createDirectories(parentOf path: String) throws(SystemError) {
        var components = path.split(separator: "/", omittingEmptySubsequences: true).dropLast()
        var current = ""
        while !components.isEmpty {
            current += "/" + components.removeFirst()
            if mkdir(current, 0o755) != 0 {
                let error = Errno.current
                if error.rawValue == EEXIST { continue }
                throw SystemError(
                    .systemCall, operation: "creating the socket directory", subject: current, errno: error,
                    hint: "create it by hand or run under systemd with RuntimeDirectory=plumscale")
            }
        }
    }
}
