import Foundation
import Synchronization

/// A running child's id and its exit status, reaped exactly once: what ``BackgroundProcess``
/// and ``DaemonFixture`` share. Released before the child exits, it kills and reaps it, so a
/// failed test leaves no process behind.
final class ChildReaper: Sendable {
    let pid: pid_t
    private let reaped = Mutex<Int32?>(nil)

    init(pid: pid_t) { self.pid = pid }

    /// The exit status once the child has exited (a signal's number plus 128), else nil.
    func exitStatus() -> Int32? {
        reaped.withLock { status in
            if let status { return status }
            var raw: Int32 = 0
            guard waitpid(pid, &raw, WNOHANG) == pid else { return nil }
            status = ChildProcess.decode(raw)
            return status
        }
    }

    /// Sends `signal` unless the child has been reaped (its pid may belong to another by then).
    func send(_ signal: Int32) {
        if reaped.withLock({ $0 }) == nil { kill(pid, signal) }
    }

    /// Sends `signal` and waits for the child to exit; its exit status.
    func stop(_ signal: Int32) -> Int32 {
        reaped.withLock { status in
            if let status { return status }
            kill(pid, signal)
            status = Self.reap(pid)
            return status!
        }
    }

    /// Waits for the child to exit by itself; after `timeout` it is killed. Its exit status.
    func waitForExit(_ what: String, timeout: Duration) -> Int32 {
        let exited: Void? = try? waitUntil(what, timeout: timeout, interval: .milliseconds(10)) {
            exitStatus() != nil
        }
        if exited == nil { send(SIGKILL) }
        return reaped.withLock { status in
            if status == nil { status = Self.reap(pid) }
            return status!
        }
    }

    deinit {
        // pid 0 would signal the whole process group: the test runner itself.
        if pid > 0, reaped.withLock({ $0 }) == nil {
            kill(pid, SIGKILL)
            _ = Self.reap(pid)
        }
    }

    private static func reap(_ pid: pid_t) -> Int32 {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return ChildProcess.decode(raw)
    }
}
