#if canImport(Glibc)
import Glibc
#endif

/// A Unix datagram socket standing in for systemd's `$NOTIFY_SOCKET`: the tests read what the
/// daemon tells systemd.
///
/// Waiting for a datagram happens on a thread of its own (``offPool(_:)``), never on the Swift
/// concurrency pool the code under test runs on, and always with a deadline.
public final class DatagramReceiver: Sendable {
    /// Where the socket is bound: what `NOTIFY_SOCKET` is set to.
    public let path: String
    private let descriptor: Int32

    /// Binds a datagram socket at `path`.
    public init(path: String) {
        self.path = path
        descriptor = RawSocket.bound(path, type: SOCK_DGRAM)
    }

    deinit { close(descriptor) }

    /// The next datagram, waiting at most `timeout` for it.
    /// - Throws: ``FixtureError`` naming `what` was awaited when nothing came in time.
    public func next(_ what: String = "a datagram", within timeout: Duration = .seconds(20)) async throws -> String {
        let descriptor = self.descriptor, path = self.path
        return try await offPool { () throws -> String in
            let clock = ContinuousClock()
            let deadline = clock.now + timeout
            var buffer = [UInt8](repeating: 0, count: 4096)
            while true {
                let left = deadline - clock.now
                guard left > .zero else {
                    throw FixtureError("waited \(timeout) on \(path) for \(what), in vain")
                }
                var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                let milliseconds = max(1, Int32(left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000))
                // EINTR (a signal meant for another test, a child exiting) just goes round again.
                guard poll(&poller, 1, milliseconds) > 0 else { continue }
                let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count >= 0 { return String(decoding: buffer[..<count], as: UTF8.self) }
            }
        }
    }

    /// Datagrams until one satisfies `predicate`, that one last; each waited for at most `timeout`.
    public func next(
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

    /// A datagram if one is already waiting; nil otherwise. Never blocks.
    public func receiveNow() -> String? {
        var buffer = [UInt8](repeating: 0, count: 4096)
        let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        return count >= 0 ? String(decoding: buffer[..<count], as: UTF8.self) : nil
    }
}
