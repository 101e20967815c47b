import PlumConfig
import PlumCore
import PlumTransport
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

@Suite("[scale] reaches the engines whole")
struct ScaleSettingsTests {
    @Test("simulated calibrations are fitted with zero tracking and initial zero off when the file turns them off")
    func simulatedCalibrationSettings() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            capacity_grams = 500
            division_grams = 0.2
            zero_tracking = false
            initial_zero = false
            restore_tare = false
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            """, file: "t.toml")
        let scale = try Daemon.scaleConfiguration(of: configuration)
        #expect(scale.capacity == 500, "capacity_grams was lost")
        #expect(scale.division.grams == 0.2, "division_grams was lost")
        #expect(scale.zeroTracking == false, "zero_tracking = false was dropped: the engine would track zero")
        #expect(
            scale.initialZeroSetting == false,
            "initial_zero = false was dropped: the first stable load would be zeroed")
        #expect(scale.restoreTare == false, "restore_tare = false was dropped: a saved tare would come back")
        let defaults = try Daemon.scaleConfiguration(
            of: PlumConfiguration.parse(
                "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n", file: "t.toml"))
        #expect(defaults.restoreTare, "restore_tare is on by default")
    }

    @Test("flow_window_ms reaches each engine as a time, layered like the other windows, and is refused out of range")
    func flowWindow() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            flow_window_ms = 2000
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            [[sensor]]
            name = "quick"
            kind = "simulated-hx711"
            flow_window_ms = 250
            """, file: "t.toml")
        let pan = try configuration.engineConfiguration(for: configuration.sensors[0])
        let quick = try configuration.engineConfiguration(for: configuration.sensors[1])
        #expect(pan.flowWindow == 2_000_000_000, "[scale] flow_window_ms = 2000 was lost: \(pan.flowWindow) ns")
        #expect(quick.flowWindow == 250_000_000, "the sensor's own flow_window_ms was lost: \(quick.flowWindow) ns")
        let defaults = try Daemon.scaleConfiguration(
            of: PlumConfiguration.parse(
                "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n", file: "t.toml"))
        #expect(defaults.flowWindow == 1_000_000_000, "the flow window is 1 s by default")
        do {
            _ = try PlumConfiguration.parse("[scale]\nflow_window_ms = 5\n", file: "t.toml")
            Issue.record("flow_window_ms = 5 was accepted")
        } catch {
            #expect(
                "\(error)".contains("t.toml") && "\(error)".contains("flow_window_ms"),
                "the refusal names the file and the key: \(error)")
        }
    }
}
