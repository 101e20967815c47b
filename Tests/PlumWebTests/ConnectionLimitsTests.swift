import Foundation
import Hummingbird
import HummingbirdTesting
import PlumSystem
import PlumTestSupport
import PlumWeb
import Synchronization
import Testing

/// What the service lets go by itself: logins whose time is up, and connections that stopped
/// talking half-way through a request.
@Suite("Expired sessions and idle connections go", .timeLimit(.minutes(1)))
struct ConnectionLimitsTests {
    @Test("logins past their lifetime are removed from memory by the store's tidying, with no request for them")
    func expiredSessionsAreTidied() async throws {
        // The lifetime passes on the test's clock, not the machine's: bcrypt logins on a busy
        // machine once took longer than a real 3 s lifetime, and the sessions were gone before
        // they were counted.
        let skip = Mutex(Duration.zero)
        let store = LoginSessionStore(tidyInterval: .milliseconds(50)) { ContinuousClock.now + skip.withLock { $0 } }
        let fixture = try WebTestFixture(sessionLifetime: .seconds(60), sessionStore: store)
        try await fixture.application().test(.live) { client in
            for _ in 0..<3 { _ = try await WebTestFixture.logIn(client) }
            // Three bcrypt logins outlast many 50 ms tidyings: those left what was not expired.
            #expect(await store.count == 3, "each login keeps its session until its time is up")
            skip.withLock { $0 = .seconds(61) }
            try await waitFor("the store to tidy the three expired sessions away", timeout: .seconds(20)) {
                await store.count == 0
            }
        }
    }

    @Test("a client that sends half a request and then nothing is disconnected once the idle time-out passes")
    func halfRequestIsClosed() async throws {
        let fixture = try WebTestFixture()
        try await fixture.application(idleTimeout: .seconds(1)).test(.live) { client in
            let port = try #require(client.port)
            let started = ContinuousClock.now
            let ending = try await offPool { try Self.halfRequest(port: port, wait: 20) }
            let elapsed = ContinuousClock.now - started
            #expect(ending == "closed" || ending == "reset", "the server closed the connection: \(ending)")
            #expect(elapsed >= .milliseconds(900) && elapsed < .seconds(15), "after the 1 s idle time-out: \(elapsed)")
        }
    }

    /// Connects to 127.0.0.1:`port`, sends a request line and one header but never the blank line
    /// that ends the head, and reads until the server closes ("closed"), resets ("reset") or
    /// `wait` seconds pass ("still open").
    static func halfRequest(port: Int, wait: Int) throws -> String {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw FixtureError("socket: errno \(errno)") }
        defer { close(descriptor) }
        let connected = InternetSocketAddress.loopback(port: UInt16(port)).withSockaddr { connect(descriptor, $0, $1) }
        guard connected == 0 else { throw FixtureError("connect 127.0.0.1:\(port): errno \(errno)") }
        let half = "GET /api/poll HTTP/1.1\r\nHost: 127.0.0.1\r\n"
        guard half.withCString({ send(descriptor, $0, strlen($0), 0) }) == half.utf8.count else {
            throw FixtureError("send: errno \(errno)")
        }
        var timeout = timeval(tv_sec: wait, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            if count == 0 { return "closed" }
            if count < 0 {
                if errno == EINTR { continue }
                return errno == ECONNRESET ? "reset" : (errno == EAGAIN ? "still open" : "errno \(errno)")
            }
            // An answer (a 408, say) before the close is fine: read on until the close.
        }
    }
}
