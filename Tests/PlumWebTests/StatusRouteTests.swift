import FoundationEssentials
import Hummingbird
import HummingbirdTesting
import PlumHistory
import PlumWeb
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// `/api/status`: what the page's status line shows, from the daemon's `?DEVICES` asked afresh
/// and the history file.
@Suite("Web status: uptimes, restarts, faults, free space and the history", .timeLimit(.minutes(2)))
struct StatusRouteTests {
    struct Status: Decodable, Sendable {
        struct Service: Decodable, Sendable {
            var service: String
            var pid: Int
            var started: String
            var uptime: Double
        }
        struct Daemon: Decodable, Sendable {
            var uptime: Double?
            var starts: Int?
            var unclean_stops: Int?
            var last_stop: String?
            var state_free_bytes: Int64?
            var state_low: Bool?
        }
        struct Device: Decodable, Sendable {
            var sensor: String
            var last_fault: String?
            var last_fault_time: String?
        }
        struct History: Decodable, Sendable {
            var path: String
            var bytes: Int64
            var oldest: Double?
            var stable_rows: Int
            var minute_rows: Int
        }
        var connected: Bool
        var services: [Service]
        var daemon: Daemon?
        var daemon_error: String?
        var devices: [Device]?
        var history: History?
        var warnings: [String]
    }

    /// A daemon of protocol 1.6 whose state directory has 40 MB free of 8 GB, and whose left
    /// pan had its wire pulled.
    static let devices =
        #"{"class":"DEVICES","devices":[{"sensor":"left","index":0,"kind":"hx711","wiring":"sim","state":"ok","#
        + #""rate":10,"nominal_rate":10,"published":50,"discarded":{},"not_ready":1,"faults":0,"notices":[],"#
        + #""calibrated":true,"last_fault":"not-ready: no DOUT","last_fault_time":"2026-11-27T06:01:02Z"}],"#
        + #""uptime":3725.5,"daemon":{"started":"2026-11-27T05:00:00Z","starts":3,"unclean_stops":1,"#
        + #""last_stop":"clean","state_directory":"/var/lib/plumscale","state_free_bytes":40000000,"#
        + #""state_total_bytes":8000000000}}"#

    static func status(_ client: some TestClientProtocol) async throws -> Status {
        try await client.execute(uri: "/api/status", method: .get) { response in
            #expect(response.status == .ok)
            return try JSONDecoder().decode(Status.self, from: Data(buffer: response.body))
        }
    }

    @Test("the daemon's uptime, restarts, last faults and low space, this service's uptime, the history's size")
    func status() async throws {
        let fixture = try WebTestFixture()
        fixture.daemon.respond { if case .devices = $0 { [Self.devices] } else { nil } }
        try fixture.history.append(
            stable: [StableReading(sensor: "left", time: 1_700_000_000, grams: 87.3)],
            minutes: [MinuteSummary(sensor: "left", minute: 1_700_000_060, min: 0, mean: 1, max: 2, samples: 80)])
        try await fixture.application().test(.live) { client in
            let status = try await Self.status(client)
            #expect(status.connected)
            let web = try #require(status.services.first)
            #expect(web.service == "plumscale-web" && web.pid == Int(getpid()), "\(web)")
            #expect(web.uptime >= 0 && web.uptime < 120 && web.started.hasSuffix("Z"), "\(web)")
            let daemon = try #require(status.daemon)
            #expect(daemon.uptime == 3725.5 && daemon.starts == 3 && daemon.unclean_stops == 1, "\(daemon)")
            #expect(daemon.last_stop == "clean" && daemon.state_free_bytes == 40_000_000)
            #expect(daemon.state_low == true, "40 MB is below 50 MB")
            #expect(
                status.warnings.contains { $0.contains("/var/lib/plumscale has only 40 MB free") },
                "the low space is a warning: \(status.warnings)")
            let left = try #require(status.devices?.first)
            #expect(left.last_fault == "not-ready: no DOUT" && left.last_fault_time == "2026-11-27T06:01:02Z")
            let history = try #require(status.history)
            #expect(history.path == fixture.history.path && history.bytes > 0)
            #expect(history.oldest == 1_700_000_000 && history.stable_rows == 1 && history.minute_rows == 1)

            let later = try await Self.status(client)
            #expect(later.services.first?.uptime ?? -1 >= web.uptime, "this service's uptime does not go back")
        }
    }

    @Test("with the daemon gone: not connected, why, and the history still shown")
    func daemonGone() async throws {
        let fixture = try WebTestFixture()
        fixture.daemon.stop()
        try await fixture.application().test(.live) { client in
            let status = try await Self.status(client)
            #expect(!status.connected && status.daemon == nil && status.daemon_error != nil, "\(status)")
            #expect(status.history?.stable_rows == 0 && status.history?.oldest == nil)
            #expect(status.services.first?.service == "plumscale-web")
        }
    }
}
