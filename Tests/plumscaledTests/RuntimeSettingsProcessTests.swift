import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

/// Settings made at runtime on a real `plumscaled`, as Home Assistant and the CLI make them: an
/// alert's threshold, a preset tare, the named-tare library. They are kept in the state directory
/// over a reload and a restart; the configuration file wins only where its own value changed.
@Suite(
    "Runtime settings on a real plumscaled: kept over SIGHUP and a restart", .tags(.process),
    .timeLimit(.minutes(3)), .ownThreads)
struct RuntimeSettingsProcessTests {
    static func configuration(_ directory: TemporaryDirectory, alerts: [String]) -> String {
        AlertReloadProcessTests.configuration(directory, alerts: alerts)
    }

    /// Sends SIGHUP and waits for the reload's log line that contains `note`.
    static func reload(_ daemon: DaemonFixture, until note: String) throws {
        daemon.send(SIGHUP)
        try waitUntil("the daemon to log \(note)", timeout: .seconds(20), describe: { daemon.log }) {
            daemon.log.contains(note)
        }
    }

    @Test("an alert threshold set at runtime survives a reload until the file's own threshold changes")
    func alertThresholdOverReloads() async throws {
        let directory = try TemporaryDirectory(prefix: "plumset")
        try directory.write("pan.grams", "100\n")
        let fruitLow = "name = \"fruit-low\"\nbelow = 200\nhysteresis = 20"
        let daemon = try await offPool {
            try DaemonFixture(configuration: Self.configuration(directory, alerts: [fruitLow]), directory: directory)
        }
        try await offPool {
            let client = try daemon.client()
            _ = try client.watch()
            _ = try AlertReloadProcessTests.alert(client, "fruit-low") { $0.active && $0.grams != nil }

            let setter = try daemon.client()
            let set = try setter.setAlert(AlertChange(name: "fruit-low", threshold: 50))
            #expect(set.threshold == 50 && set.hysteresis == 20 && !set.active, "100 g is not below 50 g: \(set)")
            let told = try AlertReloadProcessTests.alert(client, "fruit-low") { $0.threshold == 50 }
            #expect(!told.active, "watchers see the new threshold: \(told)")
            #expect(throws: ClientError.self) { try setter.setAlert(AlertChange(name: "fruit-high", threshold: 5)) }

            // Another rule added to the file: fruit-low's own values did not change, the runtime one stays.
            try directory.write(
                "plumscale.toml", Self.configuration(directory, alerts: [fruitLow, "name = \"heavy\"\nabove = 500"]))
            try Self.reload(daemon, until: "[[alert]] rules: 1 kept, 1 new or changed (heavy)")
            #expect(try AlertReloadProcessTests.currentAlerts(daemon)["fruit-low"]?.threshold == 50)

            // The file's own threshold edited: the newer decision wins, and the state forgets 50 g.
            try directory.write(
                "plumscale.toml",
                Self.configuration(directory, alerts: ["name = \"fruit-low\"\nbelow = 120\nhysteresis = 20"]))
            try Self.reload(daemon, until: "threshold 50.0 g set at runtime dropped")
            let edited = try AlertReloadProcessTests.alert(client, "fruit-low") { $0.threshold == 120 }
            #expect(edited.hysteresis == 20, "\(edited)")
            let file = try String(contentsOfFile: directory.file("state/runtime-settings.json"), encoding: .utf8)
            #expect(!file.contains("fruit-low"), "the overruled value is dropped from the state: \(file)")
        }
    }

    @Test("named tares and a preset tare through the socket; the library is kept over a restart")
    func namedTaresOverRestart() async throws {
        let directory = try TemporaryDirectory(prefix: "plumset")
        try directory.write("pan.grams", "40\n")
        let configuration = Self.configuration(directory, alerts: [])
        let first = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        try await offPool {
            try first.waitForReadings()
            let client = try first.client()
            let refused = try client.presetTare(sensor: "pan", grams: 1e6)
            #expect(!refused.ok && refused.reason == "invalidWeight", "\(refused)")
            #expect(refused.message?.contains("between 0 and the capacity") == true, "\(refused)")
            let preset = try client.presetTare(sensor: "pan", grams: 30)
            #expect(preset.ok && preset.tare == 30, "\(preset)")

            let library = try client.tares(.save(name: "bowl", sensor: "pan", grams: nil))
            #expect(library.tares == [NamedTare(name: "bowl", grams: 30)], "the tare in use is saved: \(library)")
            _ = try client.tares(.save(name: "crate", sensor: nil, grams: 12.5))
            let used = try client.useTare("crate", sensor: "pan")
            #expect(used.ok && used.tare == 12.5, "\(used)")
            let net = try client.watch()
            #expect(net.enable)
            let reading = try client.nextWeight(within: .seconds(20)) { $0.tare == 12.5 && $0.stable }
            #expect(abs((reading.grams ?? .nan) - 27.5) < 0.5, "40 g less the crate's 12.5 g: \(reading)")
        }
        #expect(try await offPool { first.terminate() } == 0)
        let second = try await offPool { try DaemonFixture(configuration: configuration, directory: directory) }
        try await offPool {
            let client = try second.client()
            #expect(
                try client.tares().tares == [NamedTare(name: "bowl", grams: 30), NamedTare(name: "crate", grams: 12.5)])
        }
    }
}
