import PlumConsole
import PlumProtocol
import Testing

/// `plumscale status`'s line per service the daemon lists (protocol 1.7).
@Suite("plumscale status: one line per service")
struct ServiceStatusTextTests {
    @Test("connected with its uptime, reconnects and facts; gone with since when; none; an older daemon nothing")
    func lines() {
        let services = [
            ServiceReport(
                name: "plumscale-mqtt", connected: true, version: "0.1.0", uptime: 3 * 3600 + 12 * 60 + 5,
                reconnects: 2, connections: 1, detail: ["broker": .text("connected"), "queued_messages": .number(4)]),
            ServiceReport(
                name: "plumscale-web", connected: false, reconnects: 1, connections: 3,
                lastSeen: "2026-11-27T10:42:00Z", detail: ["tls": .flag(false), "load": .number(0.25)])
        ]
        #expect(
            StatusText.services(services) == [
                "  service      plumscale-mqtt 0.1.0: connected, up 3 h 12 min, 2 reconnects; broker connected; "
                    + "queued messages 4",
                "  service      plumscale-web: not connected since 2026-11-27T10:42:00Z, 1 reconnect; load 0.25; tls no"
            ])
        #expect(StatusText.services([]).first?.hasPrefix("  services     none has announced itself") == true)
        #expect(StatusText.services(nil) == [], "an older daemon sends no list: no line")
    }
}

/// A name is only what a client says: the uid behind it, by the kernel's word, is shown when
/// the user of that uid has another name.
@Suite("plumscale status: a service's name against the user that announced it")
struct ServiceIdentityTextTests {
    static let users: [UInt32: String] = [61_234: "plumscale-mqtt", 1000: "alice"]

    @Test("the service's own user, root, or no uid (TCP) show nothing more; another user shows its uid and name")
    func impostor() {
        func line(_ uid: UInt32?) -> String {
            StatusText.service(
                ServiceReport(name: "plumscale-mqtt", connected: true, connections: 1, uid: uid),
                userName: { Self.users[$0] })
        }
        #expect(line(61_234) == "plumscale-mqtt: connected")
        #expect(line(0) == "plumscale-mqtt: connected")
        #expect(line(nil) == "plumscale-mqtt: connected")
        #expect(line(1000) == "plumscale-mqtt: connected [announced by uid 1000 (alice), not by a user of that name]")
        #expect(line(4242) == "plumscale-mqtt: connected [announced by uid 4242, not by a user of that name]")
    }
}
