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
}
