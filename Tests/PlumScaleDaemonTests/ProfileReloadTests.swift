import PlumCore
import PlumDaemonConfig
import PlumProtocol
import PlumStore
import PlumTestSupport
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

/// Each sensor's engine runs with its own layered settings, and a reload puts a changed
/// profile or scale key into use without a restart, while a wiring change still asks for one.
@Suite("Sensor profiles reach each engine and follow a reload")
struct ProfileReloadTests {
    static func file(panProfile: String, fsrExtra: String = "") -> String {
        """
        [scale]
        division_grams = 0.1
        [[sensor]]
        name = "pan"
        kind = "simulated-hx711"
        profile = "\(panProfile)"
        [[sensor]]
        name = "fsr"
        kind = "simulated-fsr"
        profile = "fsr402-10k-3v3"
        \(fsrExtra)
        """
    }

    @Test("each engine has its profile's settings, and a reload of a profile or a scale key applies them at once")
    func perSensorAndReload() async throws {
        let directory = try TemporaryDirectory()
        let path = try directory.write("plumscale.toml", Self.file(panProfile: "hx711-1kg-gain128"))
        let configuration = try PlumConfiguration.load(path: path)
        let station = try Station(
            configuration: configuration, store: CalibrationStore(directory: directory.path),
            publisher: DiscardingPublisher(), logger: quietLogger)
        let pan = try #require(await station.entry("pan")?.engine.configuration)
        let fsr = try #require(await station.entry("fsr")?.engine.configuration)
        #expect(pan.division.grams == 0.1 && pan.zeroTracking, "the pan's engine lost its profile: \(pan.division)")
        #expect(fsr.division.grams == 1, "the FSR's engine has the [scale] division, not its profile's")
        #expect(!fsr.zeroTracking, "the FSR's engine zero-tracks: its profile did not reach it")
        #expect(fsr.filter.averagingTime == 125_000_000 && fsr.stabilityBand == 2)

        try directory.write(
            "plumscale.toml", Self.file(panProfile: "hx711-5kg-gain128", fsrExtra: "zero_tracking = true"))
        let inUse = ConfigurationInUse(configuration)
        let notes = await reloadConfiguration(path, inUse: inUse, station: station)
        #expect(!notes.joined().contains("restart"), "a profile change asked for a restart: \(notes)")
        #expect(
            try #require(await station.entry("pan")?.engine.configuration).division.grams == 0.5,
            "the new profile's division is not in use after the reload: \(notes)")
        #expect(
            try #require(await station.entry("fsr")?.engine.configuration).zeroTracking,
            "the sensor's own zero_tracking = true was not applied by the reload")
        let devices = await station.reply(to: .devices)
        guard case .devices(let report)? = devices.first else {
            Issue.record("?DEVICES answered \(devices)")
            return
        }
        #expect(
            report.devices.map(\.profile) == ["hx711-5kg-gain128", "fsr402-10k-3v3"],
            "?DEVICES names the profiles in use after the reload: \(report.devices.map(\.profile))")

        // The divider is wiring, opened at start: that change is named as needing a restart.
        try directory.write(
            "plumscale.toml", Self.file(panProfile: "hx711-5kg-gain128", fsrExtra: "divider_ohms = 4700"))
        let wiring = await reloadConfiguration(path, inUse: inUse, station: station)
        #expect(
            wiring.contains { $0.contains("[[sensor]] changes") && $0.contains("restart") },
            "a wiring change was not reported as needing a restart: \(wiring)")
    }
}
