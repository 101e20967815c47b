package import PlumDrivers
package import PlumSettings

/// One `[[sensor]]` table: a name, a kind and the wiring that kind needs.
package struct SensorConfiguration: Hashable, Sendable {
    /// The sensor's name, unique in the file: "left", "right", "fsr1".
    package var name: String
    package var wiring: SensorWiring
    /// The line of its `[[sensor]]` header, for later messages.
    package var line: Int?
    /// The hardware profile it names (`profile = "…"`), if any.
    package var profile: HardwareProfile?
    /// The scale settings the table itself sets, over `[scale]` and the profile.
    package var scale: ScaleSettings
    /// How it tells fruit apart (`item_mode`, `min_step_divisions`); docs/items.md.
    package var items = ItemSettings()

    package init(
        name: String, wiring: SensorWiring, line: Int? = nil, profile: HardwareProfile? = nil,
        scale: ScaleSettings = ScaleSettings()
    ) {
        self.name = name
        self.wiring = wiring
        self.line = line
        self.profile = profile
        self.scale = scale
    }

    /// What must stay as it is while the daemon runs: the sensor less its scale settings,
    /// which a reload puts into use. Its item settings stay: the detector keeps the levels it
    /// has seen, so a new mode or step takes a restart.
    package var hardware: SensorConfiguration {
        var hardware = self
        hardware.profile = nil
        hardware.scale = ScaleSettings()
        return hardware
    }

    /// The `kind` key's value.
    package var kind: SourceKind { wiring.kind }
}

/// The `kind` key of a sensor.
package enum SourceKind: String, CaseIterable, Hashable, Sendable {
    case hx711
    case ads1115
    case iio
    case simulatedHX711 = "simulated-hx711"
    case simulatedFSR = "simulated-fsr"
    case replay
}

/// How a sensor is connected, per kind.
package enum SensorWiring: Hashable, Sendable {
    case hx711(HX711Wiring)
    case ads1115(ADS1115Wiring)
    case iio(IIOWiring)
    case simulatedHX711(SimulatedHX711Wiring)
    case simulatedFSR(SimulatedFSRWiring)
    case replay(ReplayWiring)

    package var kind: SourceKind {
        switch self {
        case .hx711: .hx711
        case .ads1115: .ads1115
        case .iio: .iio
        case .simulatedHX711: .simulatedHX711
        case .simulatedFSR: .simulatedFSR
        case .replay: .replay
        }
    }
}

/// Real-time settings for a sampler thread (optional; need privileges).
package struct SamplerSettings: Hashable, Sendable {
    /// SCHED_FIFO priority 1–99, or nil for the normal scheduler.
    package var realtimePriority: Int?
    /// Lock the process's memory (mlockall) so page faults cannot stretch a clock pulse.
    package var lockMemory: Bool

    package init(realtimePriority: Int? = nil, lockMemory: Bool = false) {
        self.realtimePriority = realtimePriority
        self.lockMemory = lockMemory
    }
}

/// An HX711 on two GPIO lines.
package struct HX711Wiring: Hashable, Sendable {
    /// The GPIO chip: a path (/dev/gpiochip0), a name (gpiochip4) or a label (pinctrl-rp1).
    package var chip: String
    /// DOUT and PD_SCK lines: a line name (GPIO5) or an offset ("5").
    package var dout: String
    package var sck: String
    /// Gain, rate, timeouts and checks, validated by the driver's own rules.
    package var driver: HX711Configuration
    package var sampler: SamplerSettings
}

/// An ADS1115 channel on an I2C bus, optionally reading an FSR through a divider.
package struct ADS1115Wiring: Hashable, Sendable {
    /// The bus: "1", "i2c-1" or "/dev/i2c-1".
    package var bus: String
    /// The 7-bit address: 0x48 (ADDR to GND), 0x49 (VDD), 0x4A (SDA), 0x4B (SCL).
    package var address: UInt8
    /// MUX, PGA, mode and data rate, as the driver's typed Config register.
    package var config: ADS1115Config
    /// The ALERT/RDY pin on a GPIO line, used as the conversion-ready edge.
    package var alert: AlertWiring?
    /// The FSR divider, when the channel reads a force-sensitive resistor.
    package var divider: FSRDivider?

    package struct AlertWiring: Hashable, Sendable {
        package var chip: String
        package var line: String
    }

    /// Sensors on one chip share it: the key that says which chip.
    package var chipKey: String { "\(bus)@0x\(String(address, radix: 16))" }
}

/// A channel of a kernel IIO device (the kernel's hx711 or ti-ads1015 driver).
package struct IIOWiring: Hashable, Sendable {
    /// "iio:device0" or the device's name ("ads1115", "hx711").
    package var device: String
    /// The voltage channel number N of in_voltageN_raw.
    package var channel: Int
    /// Where IIO devices live; tests point it at a fake tree.
    package var root: String
    /// How often to read the channel, in samples per second.
    package var pollRate: Double
}

/// Where a simulated sensor's load comes from.
package enum SimulatedLoad: Hashable, Sendable {
    /// Plums of 60–120 g arriving and leaving, seeded.
    case plums
    /// A constant weight in grams.
    case constant(grams: Double)
    /// The grams written in a file, read as they change (see `FileLoad`).
    case file(path: String)
}

/// An HX711 chip model on simulated lines, running in real time.
package struct SimulatedHX711Wiring: Hashable, Sendable {
    package var seed: UInt64
    package var driver: HX711Configuration
    package var load: SimulatedLoad
    /// The simulated load cell's capacity in grams.
    package var cellCapacityGrams: Double
    /// While a file exists at this path, the chip's DOUT is stuck high, as if unplugged.
    package var unplugFile: String? = nil
    /// The sampler thread's scheduling: a chip model in real time is bit-banged by the same
    /// driver, so a preempted clock pulse stretches just as on a Pi.
    package var sampler = SamplerSettings()
}

/// An FSR on a simulated ADS1115, running in real time.
package struct SimulatedFSRWiring: Hashable, Sendable {
    package var seed: UInt64
    package var dataRate: ADS1115Config.DataRate
    package var load: SimulatedLoad
    package var divider: FSRDivider
}

/// A recorded trace (`time_s,sensor,raw`) played back as a sensor.
package struct ReplayWiring: Hashable, Sendable {
    package var path: String
    /// The `sensor` column value to play; defaults to the sensor's name.
    package var traceSensor: String
    /// Play at the recorded pace (true) or as fast as the reader takes samples (false).
    package var realTime: Bool
}

extension SensorWiring {
    /// The sampler settings of kinds that bit-bang; none for the others.
    package var sampler: SamplerSettings {
        switch self {
        case .hx711(let wiring): return wiring.sampler
        case .simulatedHX711(let wiring): return wiring.sampler
        default: return SamplerSettings()
        }
    }
}
