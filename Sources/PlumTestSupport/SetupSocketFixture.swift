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
            let pid = try? ChildProcess.spawn(command, environment: environment, socket: connection, errorLog: log)
            close(connection)
            if let pid {
                Thread.detachNewThread {
                    var status: Int32 = 0
                    while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                }
            }
        }
    }
}
