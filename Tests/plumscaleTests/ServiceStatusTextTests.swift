import PlumProtocol
import Testing

@testable import plumscale

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
