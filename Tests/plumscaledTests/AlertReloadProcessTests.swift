import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// `[[alert]]` rules follow a SIGHUP of a real `plumscaled`: new and edited rules are in use at
/// once, an unchanged rule keeps its state, and a removed rule is reported `removed`, so no client
/// keeps showing an alert nothing evaluates any more.
@Suite("Alert rules follow a reload of a real plumscaled", .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct AlertReloadProcessTests {
    /// One simulated pan whose load is whatever `pan.grams` in `directory` holds, and `alerts`.
    static func configuration(_ directory: TemporaryDirectory, alerts: [String]) -> String {
        """
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        seed = 9
        rate = 80
        load_file = "\(directory.file("pan.grams"))"

        """ + alerts.map { "[[alert]]\nsensor = \"pan\"\n\($0)\n" }.joined(separator: "\n")
    }

    /// The next ALERT report of the rule `name` that `matches`.
    static func alert(
        _ client: DaemonClient, _ name: String, within: Duration = .seconds(20), _ matches: (AlertReport) -> Bool
    ) throws -> AlertReport {
        try client.nextReport(within: within, "an ALERT of \(name)") { report in
            if case .alert(let alert) = report, alert.name == name, matches(alert) { alert } else { nil }
        }
    }

    /// The ALERT reports a new watcher gets right after its ?WATCH: every rule's state now.
    static func currentAlerts(_ daemon: DaemonFixture) throws -> [String: AlertReport] {
        let client = try daemon.client()
        _ = try client.watch()
        var alerts: [String: AlertReport] = [:]
        // The states come right after the acknowledgement, before the first reading.
        _ = try client.nextReport(within: .seconds(10), "the first WEIGHT after the alert states") { report in
            switch report {
            case .alert(let alert):
                alerts[alert.name] = alert
                return nil as Bool?
            case .weight: return true
            default: return nil
            }
        }
        return alerts
    }

    @Test("a reload puts new and edited rules into use, keeps an unchanged one's state and reports a removed one")
    func rulesFollowReload() async throws {
        let directory = try TemporaryDirectory(prefix: "plumalert")
        try directory.write("pan.grams", "100\n")
        let before = Self.configuration(
            directory,
            alerts: [
                "name = \"fruit-low\"\nbelow = 200\nhysteresis = 20",
                "name = \"heavy\"\nabove = 50",
                "name = \"light\"\nbelow = 120"
            ])
        let daemon = try await offPool { try DaemonFixture(configuration: before, directory: directory) }
        try await offPool {
            let client = try daemon.client()
            _ = try client.watch()
            let raised = try Self.alert(client, "fruit-low") { $0.active && $0.grams != nil }
            _ = try Self.alert(client, "heavy") { $0.active }
            _ = try Self.alert(client, "light") { $0.active }

            // fruit-low unchanged (its table moves down a line), heavy taken out, light edited,
            // nearly-empty added.
            try directory.write(
                "plumscale.toml",
                Self.configuration(
                    directory,
                    alerts: [
                        "name = \"light\"\nbelow = 80",
                        "name = \"nearly-empty\"\nbelow = 150",
                        "name = \"fruit-low\"\nbelow = 200\nhysteresis = 20"
                    ]))
            daemon.send(SIGHUP)
            let removed = try Self.alert(client, "heavy") { $0.removed }
            #expect(removed.active == false, "a removed rule is reported cleared: \(removed)")
            let edited = try Self.alert(client, "light") { $0.threshold == 80 }
            #expect(edited.active == false, "the edited rule starts again clear, with its new threshold: \(edited)")
            let added = try Self.alert(client, "nearly-empty") { $0.active }
            #expect(added.condition == "below" && added.threshold == 150, "the new rule runs: \(added)")
            let note = "[[alert]] rules: 1 kept, 2 new or changed (light, nearly-empty), 1 removed (heavy)"
            try waitUntil("the daemon to log the reload", timeout: .seconds(10), describe: { daemon.log }) {
                daemon.log.contains(note)
            }

            let current = try Self.currentAlerts(daemon)
            #expect(
                Set(current.keys) == ["fruit-low", "light", "nearly-empty"],
                "a new watcher is told of the rules in use only: \(current.keys.sorted())")
            let kept = try #require(current["fruit-low"], "the unchanged rule is gone")
            #expect(
                kept.active && kept.time == raised.time && kept.grams == raised.grams,
                "the unchanged rule lost its state over the reload: \(kept), raised as \(raised)")

            // The edited rule is evaluated with its new threshold: below 80 g it is raised.
            try directory.write("pan.grams", "60\n")
            let light = try Self.alert(client, "light") { $0.active }
            #expect(light.threshold == 80 && (light.grams ?? .nan) < 80, "the edited rule raised wrongly: \(light)")
        }
    }
}
