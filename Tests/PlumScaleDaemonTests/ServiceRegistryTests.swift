import PlumProtocol
import PlumSystem
import Testing

@testable import PlumScaleDaemon

/// The daemon's list of services (`?CLIENT`): kept per connection, remembered per name when the
/// connection closes, counted on the monotonic clock, and bounded.
@Suite("ServiceRegistry: services connected to the daemon")
struct ServiceRegistryTests {
    static func at(_ seconds: Double) -> MonotonicInstant { MonotonicInstant(nanoseconds: UInt64(seconds * 1e9)) }

    static func bridge(uptime: Double = 100, reconnects: Int = 0) -> ClientAnnouncement {
        ClientAnnouncement(
            name: "plumscale-mqtt", version: "0.1.0", started: "2026-11-27T06:30:00Z", uptime: uptime,
            reconnects: reconnects, detail: ["broker": .text("connected")])
    }

    @Test("a connected service's uptime counts on from its announcement; a closed one is remembered with its time")
    func connectCloseReconnect() {
        let registry = ServiceRegistry()
        #expect(registry.services(now: Self.at(1)) == [], "none before any announcement")
        #expect(
            registry.announce(Self.bridge(), client: 7, now: Self.at(10))
                == .client(ClientReply(name: "plumscale-mqtt", connections: 1)))
        let listed = registry.services(now: Self.at(25.5))
        #expect(listed.count == 1)
        #expect(listed.first?.connected == true && listed.first?.uptime == 115.5, "100 s + 15.5 s since: \(listed)")
        #expect(listed.first?.detail == ["broker": .text("connected")] && listed.first?.lastSeen == nil)

        registry.closed(client: 7, now: Self.at(30), wallClock: "2026-11-27T10:42:00Z")
        let gone = registry.services(now: Self.at(40))
        #expect(
            gone == [
                ServiceReport(
                    name: "plumscale-mqtt", connected: false, version: "0.1.0", started: "2026-11-27T06:30:00Z",
                    reconnects: 0, connections: 1, lastSeen: "2026-11-27T10:42:00Z",
                    detail: ["broker": .text("connected")])
            ])
        registry.closed(client: 7, now: Self.at(41), wallClock: "2026-11-27T10:43:00Z")
        #expect(registry.services(now: Self.at(42)) == gone, "a second close of the same connection changes nothing")

        #expect(
            registry.announce(Self.bridge(uptime: 130, reconnects: 1), client: 9, now: Self.at(50))
                == .client(ClientReply(name: "plumscale-mqtt", connections: 2)))
        let back = registry.services(now: Self.at(50))
        #expect(back.first?.connected == true && back.first?.connections == 2 && back.first?.reconnects == 1)
        #expect(back.first?.lastSeen == nil, "connected again: no longer 'not connected since'")
    }

    @Test("a repeat updates the announcement; a new name on the same connection is refused")
    func repeatAndRename() {
        let registry = ServiceRegistry()
        _ = registry.announce(Self.bridge(), client: 1, now: Self.at(0))
        var update = Self.bridge(uptime: 160)
        update.detail = ["broker": .text("disconnected")]
        #expect(
            registry.announce(update, client: 1, now: Self.at(60))
                == .client(ClientReply(name: "plumscale-mqtt", connections: 1)))
        #expect(registry.services(now: Self.at(60)).first?.detail == ["broker": .text("disconnected")])
        let renamed = registry.announce(ClientAnnouncement(name: "other"), client: 1, now: Self.at(61))
        guard case .error(let message) = renamed else {
            Issue.record("a rename was accepted: \(renamed)")
            return
        }
        #expect(message.hasPrefix(#"?CLIENT: this connection announced itself as "plumscale-mqtt""#), "\(message)")
    }

    @Test("a connection beyond the bound is refused, naming it; names beyond theirs are forgotten oldest first")
    func bounds() {
        let registry = ServiceRegistry(maximumConnected: 2, maximumRemembered: 3)
        _ = registry.announce(ClientAnnouncement(name: "a"), client: 1, now: Self.at(0))
        _ = registry.announce(ClientAnnouncement(name: "b"), client: 2, now: Self.at(0))
        let third = registry.announce(ClientAnnouncement(name: "c"), client: 3, now: Self.at(0))
        guard case .error(let message) = third else {
            Issue.record("a third connection was listed: \(third)")
            return
        }
        #expect(message.hasPrefix("?CLIENT: 2 connections have announced themselves already"), "\(message)")
        registry.closed(client: 1, now: Self.at(1), wallClock: "t1")
        registry.closed(client: 2, now: Self.at(2), wallClock: "t2")
        for (index, name) in ["c", "d"].enumerated() {
            _ = registry.announce(ClientAnnouncement(name: name), client: 10 + index, now: Self.at(3))
        }
        let names = registry.services(now: Self.at(4)).map { "\($0.name) \($0.connected)" }
        #expect(names == ["c true", "d true", "b false"], "a, seen longest ago, is forgotten: \(names)")
    }
}
