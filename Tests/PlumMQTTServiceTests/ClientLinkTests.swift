import Logging
import PlumClient
import PlumHomeAssistant
import PlumProtocol
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumMQTTService

/// plumscale-mqtt's daemon side (``PlumClientLink`` over PlumClient's `DaemonLink`) against the
/// fake daemon on a real socket, stopped and started again on the same path.
@Suite("The bridge's link to plumscaled through a daemon restart", .timeLimit(.minutes(2)))
struct ClientLinkTests {
    final class Seen: Sendable {
        let events = Mutex<[DaemonEvent]>([])
        let states = Mutex<[DaemonLink.State]>([])
        var bridgeEvents: [DaemonEvent] { events.withLock { $0 } }
        var connects: Int { bridgeEvents.filter { if case .connected = $0 { true } else { false } }.count }
    }

    @Test(
        "the pans come before the reports, a daemon that stays down is reported once per reason, and presses go through after"
    )
    func followsRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "plumbridge")
        let daemon = try FakeDaemon(path: directory.file("d.sock"), sensors: ["bowl", "plate"])
        defer { daemon.stop() }
        let link = PlumClientLink(socketPath: daemon.path, logger: Logger(label: "test"))
        let seen = Seen()
        let states = link.link.states()
        let watching = Task { for await state in states { seen.states.withLock { $0.append(state) } } }
        let events = link.events()
        let following = Task { for await event in events { seen.events.withLock { $0.append(event) } } }

        try await waitFor("the pans", describe: { "\(seen.bridgeEvents)" }) { seen.connects == 1 }
        #expect(seen.bridgeEvents.first == .connected(pans: ["bowl", "plate"]), "\(seen.bridgeEvents)")
        try await waitFor("the watch") { daemon.watches.count == 1 }
        daemon.push(#"{"class":"FUTURE","note":"a class this bridge does not know is still passed on"}"#)
        try await waitFor("the report", describe: { "\(seen.bridgeEvents)" }) {
            seen.bridgeEvents.contains(.report(.unknown("FUTURE")))
        }
        #expect(try await link.perform(.tare, pan: "bowl").ok, "a press reaches the daemon")

        daemon.stop()
        // Down for several attempts: the link retries, the bridge hears of the loss once.
        try await waitFor("retries", describe: { "\(seen.states.withLock { $0 })" }) {
            seen.states.withLock { $0.filter { $0 == .connecting }.count } >= 4
        }
        // The connection closing, then nobody listening: each reason once, not once per retry.
        let reasons = seen.bridgeEvents.compactMap { if case .disconnected(let reason) = $0 { reason } else { nil } }
        #expect(reasons.count == 2 && Set(reasons).count == 2, "each loss once while the daemon stays down: \(reasons)")
        await #expect(throws: ClientError.self, "a press while the daemon is away fails") {
            try await link.perform(.zero, pan: "bowl")
        }
        try daemon.start()
        try await waitFor("the second connect", describe: { "\(seen.bridgeEvents)" }) { seen.connects == 2 }
        #expect(try await link.perform(.zero, pan: "plate").ok, "a press after the restart")
        #expect(daemon.requests.filter { $0 == .watch(WatchOptions()) }.count == 2, "every sensor watched again")
        following.cancel()
        watching.cancel()
    }
}
