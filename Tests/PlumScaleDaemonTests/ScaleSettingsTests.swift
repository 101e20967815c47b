import PlumCore
import PlumDaemonConfig
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

    @Test(
        "display_hysteresis_divisions and stability_slope_divisions reach each engine, layered, and are range-checked")
    func hysteresisAndSlope() throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            display_hysteresis_divisions = 0.1
            stability_slope_divisions = 0.3
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            [[sensor]]
            name = "still"
            kind = "simulated-hx711"
            display_hysteresis_divisions = 0
            """, file: "t.toml")
        let pan = try configuration.engineConfiguration(for: configuration.sensors[0])
        let still = try configuration.engineConfiguration(for: configuration.sensors[1])
        #expect(pan.displayHysteresis == 0.1, "[scale] display_hysteresis_divisions was lost: \(pan.displayHysteresis)")
        #expect(pan.stabilitySlope == 0.3, "[scale] stability_slope_divisions was lost: \(pan.stabilitySlope)")
        #expect(still.displayHysteresis == 0, "the sensor's own hysteresis was lost: \(still.displayHysteresis)")
        #expect(ScaleConfiguration().displayHysteresis == 0.25, "the engine's default hysteresis is 0.25 d")
        do {
            _ = try PlumConfiguration.parse("[scale]\ndisplay_hysteresis_divisions = 0.5\n", file: "t.toml")
            Issue.record("display_hysteresis_divisions = 0.5 was accepted: the display could stay a whole d off")
        } catch {
            #expect("\(error)".contains("display_hysteresis_divisions"), "the refusal names the key: \(error)")
        }
    }
}
