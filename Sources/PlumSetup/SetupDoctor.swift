import PlumDaemonConfig
import PlumHardware
import PlumProbe

/// `plumscale setup --check`: each configured sensor checked on its own hardware, as ok or a
/// problem with what to do.
package struct SetupDoctor {
    /// How long an HX711's DOUT is watched.
    var window: Duration
    var roots = ProbeRoots()

    package init(window: Duration, roots: ProbeRoots = ProbeRoots()) {
        self.window = window
        self.roots = roots
    }

    /// One sensor's result.
    package struct SensorCheck: Encodable, CustomStringConvertible {
        var sensor: String
        var kind: String
        var status: String
        var finding: String
        /// What to do about a problem.
        var hint: String?
        var hx711: HX711Finding?

        package var isOK: Bool { status == "ok" }

        package var description: String {
            if let hx711, !hx711.isOK {
                return "\(sensor) (\(kind)): problem: " + hx711.description
                    + (hint.map { "\n  what to do: \($0)" } ?? "")
            }
            return "\(sensor) (\(kind)): \(status): \(finding)" + (hint.map { "\n  what to do: \($0)" } ?? "")
        }
    }

    package struct Report: Encodable {
        var sensors: [SensorCheck]

        package init(sensors: [SensorCheck]) { self.sensors = sensors }
        var ok: Bool { sensors.allSatisfy(\.isOK) }

        enum CodingKeys: String, CodingKey { case sensors, ok }

        package func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sensors, forKey: .sensors)
            try container.encode(ok, forKey: .ok)
        }
    }

    package func check(_ sensors: [SensorConfiguration]) -> [SensorCheck] {
        sensors.map { check($0) }
    }

    func check(_ sensor: SensorConfiguration) -> SensorCheck {
        let kind = sensor.kind.rawValue
        switch sensor.wiring {
        case .hx711(let wiring):
            let pins = HX711Pins(chip: wiring.chip, dout: wiring.dout, sck: wiring.sck)
            let found = HX711Finding.watch(pins, chip: wiring.chip, roots: roots, window: window)
            guard let verdict = found.verdict else {
                return SensorCheck(
                    sensor: sensor.name, kind: kind, status: "problem",
                    finding: "could not watch DOUT: \(found.error ?? "")",
                    hint: found.lineBusy
                        ? "stop plumscaled while the doctor watches the lines (sudo systemctl stop plumscaled), "
                            + "then start it again" : "check the chip and line names in the configuration",
                    hx711: found)
            }
            guard let rate = verdict.rate else {
                return SensorCheck(
                    sensor: sensor.name, kind: kind, status: "problem", finding: verdict.finding,
                    hint: verdict.likelyCauses.first, hx711: found)
            }
            guard rate == wiring.driver.rate else {
                return SensorCheck(
                    sensor: sensor.name, kind: kind, status: "problem",
                    finding: "\(verdict.finding), but the configuration says rate = \(wiring.driver.rate.rawValue)",
                    hint: "set rate = \(rate.rawValue) in [[sensor]] '\(sensor.name)' (the RATE pin decides it)",
                    hx711: found)
            }
            return SensorCheck(sensor: sensor.name, kind: kind, status: "ok", finding: verdict.finding, hx711: found)
        case .ads1115(let wiring):
            return checkADS1115(sensor.name, wiring)
        case .iio(let wiring):
            do {
                let device = try IIODevice(wiring.device, root: wiring.root)
                return SensorCheck(sensor: sensor.name, kind: kind, status: "ok", finding: "found \(device)")
            } catch {
                return SensorCheck(
                    sensor: sensor.name, kind: kind, status: "problem", finding: "\(error)",
                    hint: "load the kernel driver (a dtoverlay line in config.txt) and reboot")
            }
        case .simulatedHX711, .simulatedFSR, .replay:
            return SensorCheck(
                sensor: sensor.name, kind: kind, status: "ok", finding: "simulated: no hardware to check")
        }
    }

    private func checkADS1115(_ name: String, _ wiring: ADS1115Wiring) -> SensorCheck {
        let kind = SourceKind.ads1115.rawValue
        let bus: I2CBusSpec
        do throws(HardwareError) { bus = try I2CBusSpec(parsing: wiring.bus) } catch {
            return SensorCheck(sensor: name, kind: kind, status: "problem", finding: "\(error)", hint: error.hint)
        }
        let found = ADS1115Finding.probe(bus: bus.number, address: wiring.address) {
            (address: UInt8) throws(HardwareError) -> I2CDevice in
            try I2CDevice(bus: bus, address: I2CAddress(validating: Int(address)))
        }
        switch found.state {
        case .ads1115AtReset, .answeredOtherValue:
            return SensorCheck(sensor: name, kind: kind, status: "ok", finding: found.description)
        case .absent:
            return SensorCheck(
                sensor: name, kind: kind, status: "problem", finding: found.description,
                hint: "check VDD, GND, SDA and SCL, and that ADDR selects \(I2CAddress(rawValue: wiring.address)!); "
                    + "the wiring: " + ReadmeWiring.ads1115Table.dropFirst().joined(separator: ", "))
        case .error:
            return SensorCheck(
                sensor: name, kind: kind, status: "problem", finding: found.description,
                hint: "a kernel driver (ti-ads1015) may own the address: remove its dtoverlay, or use kind = \"iio\"")
        }
    }
}
