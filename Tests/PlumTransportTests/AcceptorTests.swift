import PlumSystem
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Glibc
#endif

/// The acceptor's thread on a real listening Unix socket: what it hands over, and what it says
/// when the daemon is out of descriptors.
@Suite("Acceptor, the transport's own accept thread")
struct AcceptorTests {
    /// Connections handed over by the acceptor, in order.
    final class Accepted: Sendable {
        private let descriptors = Mutex<[CInt]>([])
        var all: [CInt] { descriptors.withLock { $0 } }
        func append(_ descriptor: CInt) { descriptors.withLock { $0.append(descriptor) } }
        func closeAll() { descriptors.withLock { $0.forEach { close($0) } } }
    }

    /// How many more accepts fail as a process at its descriptor limit fails them.
    final class Shortage: Sendable {
        private let left: Mutex<Int>
        init(_ count: Int) { left = Mutex(count) }
        func take() -> Bool {
            left.withLock { count in
                defer { count = max(0, count - 1) }
                return count > 0
            }
        }
    }

    /// A client connected to `path`, blocking; the caller closes it.
    private func connect(to path: String) throws -> CInt {
        let address = try UnixSocketAddress(path: path)
        let client = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        try #require(client >= 0, "socket: \(Errno.current)")
        try #require(address.withSockaddr { Glibc.connect(client, $0, $1) } == 0, "connect: \(Errno.current)")
        return client
    }

    @Test(
        "each connection is handed over non-blocking and close-on-exec: it never blocks a loop nor leaks into a child"
    )
    func acceptedFlags() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/acceptor.sock"
        let listening = try Acceptor.listen(on: .unixSocket(path: path), backlog: 8)
        defer { close(listening) }
        let accepted = Accepted()
        defer { accepted.closeAll() }
        let acceptor = try Acceptor(
            listeners: [.init(descriptor: listening, name: path, accepted: { accepted.append($0) })],
            logger: quietLogger)
        try acceptor.start()
        defer { acceptor.stop() }
        let first = try connect(to: path)
        defer { close(first) }
        let second = try connect(to: path)
        defer { close(second) }
        try await waitFor("two connections accepted", describe: { "\(accepted.all)" }) { accepted.all.count == 2 }
        for descriptor in accepted.all {
            #expect(fcntl(descriptor, F_GETFD) & FD_CLOEXEC != 0, "fd \(descriptor) lacks FD_CLOEXEC")
            #expect(fcntl(descriptor, F_GETFL) & O_NONBLOCK != 0, "fd \(descriptor) is blocking")
        }
        // They are the clients' peers: a byte written by a client arrives on an accepted socket.
        #expect(write(first, "x", 1) == 1)
        try await waitFor("the byte to arrive on an accepted socket") {
            accepted.all.contains { descriptor in
                var byte: UInt8 = 0
                return recv(descriptor, &byte, 1, CInt(MSG_PEEK)) == 1 && byte == UInt8(ascii: "x")
            }
        }
    }

    @Test(
        """
        out of descriptors (EMFILE), it says so once with the errno and what to raise, keeps the client queued, \
        and says when it accepts again
        """)
    func tooManyOpenFiles() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/acceptor.sock"
        let listening = try Acceptor.listen(on: .unixSocket(path: path), backlog: 8)
        defer { close(listening) }
        let accepted = Accepted()
        defer { accepted.closeAll() }
        let log = LogLines()
        // The kernel's EMFILE, three times, as a process at its RLIMIT_NOFILE gets it; lowering
        // the limit for real would starve every other test in this process.
        let shortage = Shortage(3)
        let acceptor = try Acceptor(
            listeners: [.init(descriptor: listening, name: path, accepted: { accepted.append($0) })],
            logger: log.logger(),
            accept: { shortage.take() ? .failure(.tooManyOpenFiles) : Syscalls.accept($0) })
        try acceptor.start()
        defer { acceptor.stop() }
        let client = try connect(to: path)
        defer { close(client) }
        try await waitFor("the queued client to be accepted once descriptors are back", describe: { "\(log.all)" }) {
            accepted.all.count == 1
        }
        let errors = log.all.filter { $0.hasPrefix("error:") }
        #expect(
            errors == [
                "error: accepting on \(path): Too many open files (EMFILE); new clients wait in the queue until others "
                    + "disconnect: raise LimitNOFILE= for plumscaled.service (or ulimit -n), or lower max_clients"
            ], "logged once, not per attempt")
        #expect(log.all.contains("notice: accepting connections on \(path) again"))
    }
}
