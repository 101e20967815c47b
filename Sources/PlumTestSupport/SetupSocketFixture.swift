import Foundation
import PlumSystem
import Synchronization

/// `plumscale-setup.socket` as systemd runs it, for tests: a Unix socket that starts the built
/// `plumscale setup --serve` per connection (`Accept=yes`), the connection on its standard
/// input and output, its standard error appended to ``log``.
package final class SetupSocketFixture: Sendable {
    package let path: String
    /// What the setup processes wrote on standard error, all of them.
    package let log: String
    private let listener: Int32
    private let stopped = Mutex(false)
    private let started = Mutex(0)

    /// How many setup processes the socket started.
    package var connections: Int { started.withLock { $0 } }

    /// Listens at `path` (mode `mode`) and runs `plumscale` with `arguments` for each connection.
    package init(
        path: String, arguments: [String], environment: [String: String] = [:], log: String, mode: mode_t = 0o600
    ) throws {
        self.path = path
        self.log = log
        let address = try UnixSocketAddress(path: path)
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw FixtureError("socket(AF_UNIX): \(Errno.current)") }
        listener = fd
        unlink(path)
        guard address.withSockaddr({ bind(fd, $0, $1) }) == 0, listen(fd, 8) == 0, chmod(path, mode) == 0 else {
            let error = Errno.current
            close(fd)
            throw FixtureError("listening at \(path): \(error)")
        }
        let command = [BuiltProducts.plumscale, "setup", "--serve"] + arguments
        Thread.detachNewThread { [self] in acceptLoop(command: command, environment: environment) }
    }

    deinit {
        stopped.withLock { $0 = true }
        close(listener)
        unlink(path)
    }

    /// Stops accepting; the processes already started finish on their own.
    package func stop() { stopped.withLock { $0 = true } }

    private func acceptLoop(command: [String], environment: [String: String]) {
        while !stopped.withLock({ $0 }) {
            var request = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
            guard poll(&request, 1, 100) > 0 else { continue }
            let connection = accept(listener, nil, nil)
            guard connection >= 0 else { continue }
            _ = fcntl(connection, F_SETFD, FD_CLOEXEC)
            started.withLock { $0 += 1 }
            let pid = try? Self.spawn(command, environment: environment, connection: connection, log: log)
            close(connection)
            if let pid {
                Thread.detachNewThread {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                }
            }
        }
    }

    private static func spawn(
        _ command: [String], environment: [String: String], connection: Int32, log: String
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, connection, 0)
        posix_spawn_file_actions_adddup2(&actions, connection, 1)
        posix_spawn_file_actions_addopen(&actions, 2, log, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawn(&pid, command[0], &actions, nil, argv, envp)
        guard result == 0 else { throw FixtureError("starting \(command[0]): \(Errno(rawValue: result))") }
        return pid
    }
}
