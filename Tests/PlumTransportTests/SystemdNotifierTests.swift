import PlumSystem
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumTransport

#if canImport(Glibc)
    import Logging
    import Glibc
#endif

@Suite("sd_notify over a real datagram socket")
struct SystemdNotifierTests {
    @Test(
        "a notification socket that is never read drops notifications with an error instead of blocking the daemon",
        .timeLimit(.minutes(1)))
    func fullSocketNeverBlocks() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notify"
        // A manager that stopped reading: bound, and not read until the end (DatagramReceiver
        // drains at once, as systemd does).
        let stalled = RawSocket.bound(path, type: SOCK_DGRAM)
        defer { close(stalled) }
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        // Off the pool: if a send blocked, only this thread would wait, and the time limit ends it.
        let refused = try await offPool { () -> (sent: Int, error: String)? in
            for sent in 0..<100_000 {
                do { try notifier.watchdog() } catch { return (sent, "\(error)") }
            }
            return nil
        }
        let (sent, error) = try #require(refused, "100,000 pings fitted in a socket nobody reads")
        #expect(error.contains("full") && error.contains("dropped"), "the error says the ping was dropped: \(error)")
        #expect(sent > 0, "the first pings fitted before the socket filled")
        var buffer = [UInt8](repeating: 0, count: 64)
        let count = buffer.withUnsafeMutableBytes { recv(stalled, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
        #expect(
            count > 0 && String(decoding: buffer[..<max(0, count)], as: UTF8.self) == "WATCHDOG=1",
            "what did fit arrived whole")
    }

    @Test("each notification arrives as one datagram with the assignments systemd expects")
    func messages() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notify"
        let systemd = DatagramReceiver(path: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])

        try notifier.ready(status: "2 sensors, 0 clients")
        let ready = try await systemd.next("READY=1 with its status")
        #expect(ready == "READY=1\nSTATUS=2 sensors, 0 clients", "systemd got \(ready.debugDescription)")
        try notifier.stopping()
        let stopping = try await systemd.next("STOPPING=1")
        #expect(stopping == "STOPPING=1", "systemd got \(stopping.debugDescription)")
        try notifier.watchdog()
        let ping = try await systemd.next("WATCHDOG=1")
        #expect(ping == "WATCHDOG=1", "systemd got \(ping.debugDescription)")
        try notifier.status("calibrating left")
        let status = try await systemd.next("STATUS=")
        #expect(status == "STATUS=calibrating left", "systemd got \(status.debugDescription)")

        let before = SystemdNotifier.monotonicMicroseconds()
        try notifier.reloading()
        let after = SystemdNotifier.monotonicMicroseconds()
        let reloading = try await systemd.next("RELOADING=1").split(separator: "\n")
        #expect(reloading.first == "RELOADING=1", "systemd got \(reloading)")
        let stamp = try #require(
            reloading.last.flatMap { UInt64($0.dropFirst("MONOTONIC_USEC=".count)) },
            "no MONOTONIC_USEC in \(reloading)")
        #expect(reloading.last?.hasPrefix("MONOTONIC_USEC=") == true, "systemd got \(reloading)")
        #expect((before...after).contains(stamp), "MONOTONIC_USEC=\(stamp) is not between \(before) and \(after)")
    }

    @Test("an '@' address is an abstract socket")
    func abstractSocket() async throws {
        let name = "@plumscale-test-\(getpid())"
        let systemd = DatagramReceiver(path: name)
        try SystemdNotifier(environment: ["NOTIFY_SOCKET": name]).ready()
        let ready = try await systemd.next("READY=1 on the abstract socket")
        #expect(ready == "READY=1", "systemd got \(ready.debugDescription)")
    }

    @Test("without NOTIFY_SOCKET every notification is a no-op")
    func notUnderSystemd() throws {
        let notifier = SystemdNotifier(environment: [:])
        #expect(notifier.socketPath == nil)
        try notifier.ready()
        try notifier.watchdog()
    }

    @Test("an assignment with a newline or without '=' is refused before anything is sent")
    func malformedAssignment() throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notify"
        let systemd = DatagramReceiver(path: path)
        let notifier = SystemdNotifier(environment: ["NOTIFY_SOCKET": path])
        #expect(throws: SystemError.self) { try notifier.send(["STATUS=two\nlines"]) }
        #expect(throws: SystemError.self) { try notifier.send(["READY"]) }
        // Sending is synchronous: a datagram sent would be waiting by now.
        let sent = systemd.receiveNow()
        #expect(sent == nil, "a refused notification reached systemd: \(sent.debugDescription)")
    }

    @Test("a notification socket nobody listens on is an error that names it")
    func missingSocket() {
        let error = #expect(throws: SystemError.self) {
            try SystemdNotifier(environment: ["NOTIFY_SOCKET": "/nonexistent/notify"]).ready()
        }
        #expect(
            error?.description.hasPrefix(
                "notifying systemd through /nonexistent/notify: No such file or directory (ENOENT)") == true)
    }

    struct WatchdogCase: Sendable, CustomTestStringConvertible {
        var environment: [String: String]
        var timeout: Duration?
        var testDescription: String {
            environment.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    @Test(
        "WATCHDOG_USEC and WATCHDOG_PID give the timeout; pings go out at half of it",
        arguments: [
            WatchdogCase(environment: [:], timeout: nil),
            WatchdogCase(environment: ["WATCHDOG_USEC": "10000000"], timeout: .seconds(10)),
            WatchdogCase(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "SELF"], timeout: .seconds(30)),
            WatchdogCase(environment: ["WATCHDOG_USEC": "30000000", "WATCHDOG_PID": "1"], timeout: nil)
        ])
    func watchdogTimeout(_ given: WatchdogCase) throws {
        let environment = given.environment.mapValues { $0 == "SELF" ? "\(getpid())" : $0 }
        let pinger = try WatchdogPinger(
            environment: environment, notifier: SystemdNotifier(environment: [:]), logger: quietLogger
        ) { true }
        #expect(pinger.timeout == given.timeout)
        #expect(pinger.interval == given.timeout.map { $0 / 2 })
    }

    @Test("a malformed WATCHDOG_USEC is refused by name", arguments: ["0", "ten", "-5"])
    func badWatchdog(_ value: String) {
        let error = #expect(throws: SystemError.self) {
            try WatchdogPinger(
                environment: ["WATCHDOG_USEC": value], notifier: SystemdNotifier(environment: [:]), logger: quietLogger
            ) { true }
        }
        #expect(
            error?.description.hasPrefix(
                "reading WATCHDOG_USEC=\"\(value)\": it must be a positive number of microseconds") == true)
    }

    @Test("the watchdog pings while healthy and stays silent while not")
    func pingsOnlyWhenHealthy() async throws {
        let directory = try TemporaryDirectory()
        let path = directory.path + "/notify"
        let systemd = DatagramReceiver(path: path)
        let healthy = Atomic(true)
        let checks = Atomic(0)
        let pinger = try WatchdogPinger(
            environment: ["WATCHDOG_USEC": "40000"], notifier: SystemdNotifier(environment: ["NOTIFY_SOCKET": path]),
            logger: quietLogger
        ) {
            checks.add(1, ordering: .relaxed)
            return healthy.load(ordering: .relaxed)
        }
        let running = Task { try await pinger.run() }
        defer { running.cancel() }

        let pings = [try await systemd.next("a first watchdog ping"), try await systemd.next("a second watchdog ping")]
        #expect(pings == ["WATCHDOG=1", "WATCHDOG=1"], "systemd got \(pings)")

        healthy.store(false, ordering: .relaxed)
        // Wait for two checks that began after the change, then drop what the last healthy
        // check may have sent; after that nothing may arrive.
        let start = checks.load(ordering: .relaxed)
        try await waitFor(
            "two health checks after the change", describe: { "\(checks.load(ordering: .relaxed) - start)" }
        ) {
            checks.load(ordering: .relaxed) >= start + 2
        }
        while systemd.receiveNow() != nil {}
        let later = checks.load(ordering: .relaxed)
        try await waitFor("three more health checks", describe: { "\(checks.load(ordering: .relaxed) - later)" }) {
            checks.load(ordering: .relaxed) >= later + 3
        }
        let unhealthyPing = systemd.receiveNow()
        #expect(unhealthyPing == nil, "the watchdog pinged while unhealthy: \(unhealthyPing.debugDescription)")
    }
}
