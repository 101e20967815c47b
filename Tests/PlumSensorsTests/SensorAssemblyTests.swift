import PlumCore
import PlumDaemonConfig
import PlumDrivers
import PlumSensors
import PlumSimulation
import Testing

@Suite("Sensors assembled from the configuration")
struct SensorAssemblyTests {
    struct IdentityCase: Sendable, CustomTestStringConvertible {
        var table: String
        var identity: SensorIdentity
        var sensorKind: SensorKind
        var testDescription: String { "\(identity.model) → \(sensorKind)" }
    }

    @Test(
        "each source kind has the identity its calibration is stored under and its engine kind",
        arguments: [
            IdentityCase(
                table: "kind = \"hx711\"\nchip = \"gpiochip0\"\ndout = 5\nsck = 6\ngain = 64",
                identity: SensorIdentity(id: "s", model: "hx711", gain: 64), sensorKind: .loadCell),
            IdentityCase(
                table: "kind = \"simulated-hx711\"",
                identity: SensorIdentity(id: "s", model: "simulated-hx711", gain: 128), sensorKind: .loadCell),
            IdentityCase(
                table: "kind = \"simulated-fsr\"",
                identity: SensorIdentity(id: "s", model: "simulated-fsr"), sensorKind: .fsr),
            IdentityCase(
                table: "kind = \"iio\"\ndevice = \"iio:device0\"\nchannel = 0",
                identity: SensorIdentity(id: "s", model: "iio"), sensorKind: .loadCell)
        ])
    func identity(_ example: IdentityCase) throws {
        let configuration = try PlumConfiguration.parse("[[sensor]]\nname = \"s\"\n\(example.table)\n", file: "t.toml")
        let sensor = try configuration.sensor(named: "s")
        #expect(sensor.identity == example.identity, "the calibration store would look under another identity")
        #expect(sensor.sensorKind == example.sensorKind, "the engine would fit in the wrong domain")
    }

    @Test("a simulated HX711's exact calibration weighs the chip model's noiseless code as the load it was made at")
    func simulatedCalibration() throws {
        let configuration = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"s\"\nkind = \"simulated-hx711\"\ncell_capacity_grams = 1000\n", file: "t.toml")
        let sensor = try configuration.sensor(named: "s")
        var scale = ScaleConfiguration()
        scale.capacity = 385
        let calibration = try #require(
            try SimulatedCalibration.exact(for: sensor, scale: scale),
            "a simulated HX711 has an exact calibration")
        guard case .simulatedHX711(let wiring) = sensor.wiring else { throw CancellationError() }
        var chip = HX711Model<VirtualClock>.Configuration()
        chip.loadCell.capacityGrams = 1000
        for grams in [0.0, 123.4, 385] {
            let code = try SimulatedHX711<VirtualClock>.noiselessCode(grams: grams, driver: wiring.driver, chip: chip)
            let weighed = try #require(calibration.grams(fromSignal: Double(code)))
            #expect(abs(weighed - grams) < 0.05, "code \(code) weighs \(weighed) g, not the \(grams) g it was made at")
        }
    }

    @Test("only simulated HX711s have an exact calibration; a real chip must be calibrated by hand")
    func onlySimulatedChips() throws {
        let configuration = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"s\"\nkind = \"hx711\"\nchip = \"gpiochip0\"\ndout = 5\nsck = 6\n", file: "t.toml")
        let calibration = try SimulatedCalibration.exact(for: configuration.sensors[0], scale: ScaleConfiguration())
        #expect(calibration == nil, "a real HX711 got a made-up calibration")
    }

    @Test("the factory opens a simulated sensor that delivers samples")
    func factoryOpensSimulation() throws {
        let configuration = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"s\"\nkind = \"simulated-hx711\"\nload_grams = 50\n", file: "t.toml")
        let source = try SensorFactory.open(configuration.sensors[0])
        #expect(source.info.name == "s", "the source is named after its [[sensor]]")
        let sample = try source.next()
        #expect(sample.raw != 0, "a loaded simulated chip reads a code")
    }
}
