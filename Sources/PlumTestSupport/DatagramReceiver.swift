import Foundation
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// A Unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`: the tests read what the
/// daemon tells systemd.
///
/// Like systemd, it drains its socket at once, on a thread of its own, whether or not a test
/// is reading yet: a socket left to fill (the kernel queues ten datagrams) would make the
/// daemon drop notifications that a real manager receives. Tests take the datagrams in order
/// from that thread's inbox, always with a deadline, suspended between looks, so no thread of
/// the Swift concurrency pool waits.
package final class DatagramReceiver: Sendable {
    /// Where the socket is bound: what `NOTIFY_SOCKET` is set to.
    package let path: String
    private let inbox = Inbox()

    /// Binds a datagram socket at `path` and starts draining it.
    package init(path: String) {
        self.path = path
        let descriptor = RawSocket.bound(path, type: SOCK_DGRAM)
        let inbox = self.inbox
        let thread = Thread {
            var buffer = [UInt8](repeating: 0, count: 4096)
            while !inbox.isStopped {
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                // EINTR (a signal meant for another test, a child exiting) just goes round again.
                guard poll(&poller, 1, 50) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes {
                    recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count >= 0 { inbox.append(String(decoding: buffer[..<count], as: UTF8.self)) }
            }
            close(descriptor)
        }
        thread.name = "plum-test-notify"
        thread.start()
    }

    deinit { inbox.stop() }

    /// The next datagram, waiting at most `timeout` for it.
    /// - Throws: ``FixtureError`` naming `what` was awaited when nothing came in time.
    package func next(_ what: String = "a datagram", within timeout: Duration = .seconds(20)) async throws -> String {
        let clock = ContinuousClock()
        let deadline = clock.now + timeout
        while true {
            if let datagram = inbox.removeFirst() { return datagram }
            guard clock.now < deadline else {
                throw FixtureError("waited \(timeout) on \(path) for \(what), in vain")
            }
            try await Task.sleep(for: .milliseconds(5))
        }
    }

    /// Datagrams until one satisfies `predicate`, that one last; each waited for at most `timeout`.
    package func next(
        _ what: String, within timeout: Duration = .seconds(20), until predicate: (String) -> Bool
    ) async throws -> [String] {
        var seen: [String] = []
        while true {
            do {
                seen.append(try await next(what, within: timeout))
            } catch {
                throw FixtureError("\(error); before that: \(seen.suffix(5))")
            }
            if predicate(seen.last!) { return seen }
        }
    }

    /// A datagram if one has come and was not taken yet; nil otherwise. Never blocks.
    package func receiveNow() -> String? { inbox.removeFirst() }

    /// What the draining thread has received and the tests have not taken yet.
    private final class Inbox: Sendable {
        private struct State {
            var datagrams: [String] = []
            var stopped = false
        }
        private let state = Mutex(State())

        var isStopped: Bool { state.withLock { $0.stopped } }
        func stop() { state.withLock { $0.stopped = true } }
        func append(_ datagram: String) { state.withLock { $0.datagrams.append(datagram) } }
        func removeFirst() -> String? {
            state.withLock { $0.datagrams.isEmpty ? nil : $0.datagrams.removeFirst() }
        }
    }
}
