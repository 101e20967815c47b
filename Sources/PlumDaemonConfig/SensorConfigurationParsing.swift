internal import PlumDrivers
internal import PlumSettings
internal import TOMLKit

/// Parsing of one `[[sensor]]` table, per kind.
extension SensorConfiguration {
    /// - Parameter scale: the file's `[scale]`, under the sensor's profile and own keys.
    static func parse(
        _ table: TOMLTable, index: Int, file: String, locator: SourceLocator, section: SourceLocator.Section,
        scale: ScaleSettings = ScaleSettings()
    ) throws(ConfigurationError) -> SensorConfiguration {
        var reader = TOMLReader(table: table, file: file, path: "sensor[\(index)]", locator: locator, section: section)
        let name = try reader.requiredString("name", example: "\"left\"")
        guard Self.isValidName(name) else {
            throw reader.error(
                "name", "name = \"\(name)\" is not allowed; use letters, digits, '-' and '_' (1 to 32 characters)")
        }
        reader = TOMLReader(table: table, file: file, path: "sensor \"\(name)\"", locator: locator, section: section)
        _ = try reader.string("name")
        let kinds = SourceKind.allCases.map { ($0.rawValue, $0) }
        guard let kind = try reader.choice("kind", kinds) else {
            throw reader.error(nil, "missing key kind; use \(TOMLReader.list(kinds.map { $0.0 }))")
        }
        let profile = try Self.profile(&reader, kind: kind)
        let wiring: SensorWiring
        switch kind {
        case .hx711: wiring = .hx711(try HX711Wiring(&reader))
        case .ads1115: wiring = .ads1115(try ADS1115Wiring(&reader))
        case .iio: wiring = .iio(try IIOWiring(&reader))
        case .simulatedHX711: wiring = .simulatedHX711(try SimulatedHX711Wiring(&reader))
        case .simulatedFSR: wiring = .simulatedFSR(try SimulatedFSRWiring(&reader))
        case .replay: wiring = .replay(try ReplayWiring(&reader, sensorName: name))
        }
        try Self.checkGain(of: wiring, fits: profile, reader)
        let own = try ScaleSettings(layer: &reader)
        let items = try ItemSettings(&reader)
        try reader.rejectUnknownKeys()
        var sensor = SensorConfiguration(
            name: name, wiring: wiring, line: locator.line(of: section), profile: profile, scale: own)
        sensor.items = items
        try sensor.checkDivisions(over: scale, reader)
        return sensor
    }

    /// Names go into socket messages, file names and command lines: keep them plain.
    package static func isValidName(_ name: String) -> Bool {
        (1...32).contains(name.count)
            && name.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "_") }
    }
}

extension SamplerSettings {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        self.init(
            realtimePriority: try reader.int("realtime_priority", in: 1...99, unit: "(SCHED_FIFO priority)"),
            lockMemory: try reader.bool("lock_memory") ?? false)
    }
}

extension HX711Wiring {
    static let gains: [(String, Int)] = [("128", 128), ("64", 64), ("32", 32)]
    static let rates: [(String, Int)] = [("10", 10), ("80", 80)]

    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        chip = try reader.requiredString("chip", example: "\"gpiochip0\" (or a label such as \"pinctrl-rp1\")")
        guard let dout = try reader.stringOrInt("dout") else {
            throw reader.error(nil, "missing key dout; the GPIO line DOUT is wired to, for example dout = \"GPIO5\"")
        }
        guard let sck = try reader.stringOrInt("sck") else {
            throw reader.error(nil, "missing key sck; the GPIO line PD_SCK is wired to, for example sck = \"GPIO6\"")
        }
        guard dout != sck else {
            throw reader.error("sck", "dout and sck are both \(dout); they must be two different lines")
        }
        self.dout = dout
        self.sck = sck
        driver = try Self.driverConfiguration(&reader, defaultRate: 10)
        sampler = try SamplerSettings(&reader)
    }

    /// Reads gain, rate and the driver's limits, and checks them with the driver's own rules.
    static func driverConfiguration(_ reader: inout TOMLReader, defaultRate: Int) throws(ConfigurationError)
        -> HX711Configuration
    {
        let gain = try reader.choice("gain", gains) ?? 128
        let rate = try reader.choice("rate", rates) ?? defaultRate
        var configuration = HX711Configuration()
        do {
            configuration.gain = try HX711Gain(parsing: String(gain))
            configuration.rate = try HX711Rate(samplesPerSecond: rate)
        } catch {
            throw reader.error("gain", error.description)
        }
        if let timeout = try reader.int("ready_timeout_ms", in: 1...60_000, unit: "ms") {
            configuration.readyTimeout = .milliseconds(timeout)
        }
        if let limit = try reader.int("clock_high_limit_us", in: 1...100_000, unit: "µs") {
            configuration.clockHighLimit = .microseconds(limit)
        }
        configuration.verifyBits = try reader.bool("verify_bits") ?? true
        do {
            return try configuration.validated()
        } catch {
            let key = error.setting.replacingOccurrences(of: "-", with: "_")
            throw reader.error(
                reader.has(key + "_ms") ? key + "_ms" : (reader.has(key + "_us") ? key + "_us" : nil), error.description
            )
        }
    }
}

extension ADS1115Wiring {
    static let channels = ["AIN0", "AIN1", "AIN2", "AIN3", "AIN0-AIN1", "AIN0-AIN3", "AIN1-AIN3", "AIN2-AIN3"]

    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        guard let bus = try reader.stringOrInt("bus") else {
            throw reader.error(nil, "missing key bus; the I2C bus number, for example bus = 1 for /dev/i2c-1")
        }
        self.bus = bus
        // The driver's own parsers decide what the chip supports; their messages list it.
        let addressValue = try reader.int("address") ?? 0x48
        do { address = try ADS1115Config.validateAddress(addressValue) } catch {
            throw reader.error("address", error.description)
        }
        let channel = try reader.string("channel") ?? "AIN0"
        let mux: ADS1115Config.Mux
        do { mux = try ADS1115Config.Mux(name: channel) } catch { throw reader.error("channel", error.description) }
        let volts = try reader.double("pga_volts") ?? 4.096
        let gain: ADS1115Config.ProgrammableGain
        do { gain = try ADS1115Config.ProgrammableGain(fullScaleVolts: volts) } catch {
            throw reader.error("pga_volts", error.description)
        }
        let rate = try Self.dataRate(&reader)
        let mode: ADS1115Config.Mode =
            try reader.choice("mode", [("single-shot", .singleShot), ("continuous", .continuous)]) ?? .singleShot
        config = ADS1115Config(mux: mux, gain: gain, mode: mode, dataRate: rate)
        let alertChip = try reader.string("alert_chip")
        let alertLine = try reader.stringOrInt("alert_line")
        switch (alertChip, alertLine) {
        case (nil, nil): alert = nil
        case (let chip?, let line?): alert = AlertWiring(chip: chip, line: line)
        case (nil, _?):
            throw reader.error("alert_line", "alert_line needs alert_chip too, for example alert_chip = \"gpiochip0\"")
        case (_?, nil):
            throw reader.error("alert_chip", "alert_chip needs alert_line too, for example alert_line = \"GPIO17\"")
        }
        divider = try Self.divider(&reader, required: false)
    }

    static func dataRate(_ reader: inout TOMLReader) throws(ConfigurationError) -> ADS1115Config.DataRate {
        let rate = try reader.int("data_rate") ?? 128
        do { return try ADS1115Config.DataRate(samplesPerSecond: rate) } catch {
            throw reader.error("data_rate", error.description)
        }
    }

    /// Reads `divider_ohms`, `supply_volts` and `fsr_side`; nil when no divider is configured.
    static func divider(_ reader: inout TOMLReader, required: Bool) throws(ConfigurationError) -> FSRDivider? {
        let ohms = try reader.double("divider_ohms")
        let supply = try reader.double("supply_volts")
        let side = try reader.choice(
            "fsr_side", [("supply", FSRDivider.Placement.fsrToSupply), ("ground", .fsrToGround)])
        guard let ohms else {
            if required || supply != nil || side != nil {
                throw reader.error(
                    nil,
                    "missing key divider_ohms; the fixed resistor of the FSR divider, for example divider_ohms = 10000")
            }
            return nil
        }
        do {
            return try FSRDivider(supplyVolts: supply ?? 3.3, fixedOhms: ohms, placement: side ?? .fsrToSupply)
        } catch {
            throw reader.error(error.parameter.hasPrefix("supply") ? "supply_volts" : "divider_ohms", error.description)
        }
    }
}

extension IIOWiring {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        device = try reader.requiredString(
            "device", example: "\"iio:device0\" or the device's name, such as \"ads1115\"")
        channel = try reader.int("channel", in: 0...15, unit: "(in_voltageN_raw)") ?? 0
        root = try reader.string("root") ?? "/sys/bus/iio/devices"
        pollRate = try reader.double("poll_rate", in: 0.1...1000, unit: "samples per second") ?? 10
    }
}

extension SimulatedLoad {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        let grams = try reader.double("load_grams", in: 0...100_000, unit: "g")
        let file = try reader.string("load_file")
        if grams != nil && file != nil {
            throw reader.error(
                "load_file",
                "load_grams and load_file both set; choose one: a constant load, or a file that holds the grams on "
                    + "the pan"
            )
        }
        if let grams {
            self = .constant(grams: grams)
        } else if let file {
            guard file.hasPrefix("/") else {
                throw reader.error(
                    "load_file", "load_file = \"\(file)\" must be an absolute path, such as \"/tmp/left.grams\"")
            }
            self = .file(path: file)
        } else {
            self = .plums
        }
    }
}

extension SimulatedHX711Wiring {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        seed = UInt64(try reader.int("seed", in: 0...Int.max, unit: "") ?? 1)
        driver = try HX711Wiring.driverConfiguration(&reader, defaultRate: 80)
        load = try SimulatedLoad(&reader)
        cellCapacityGrams = try reader.double("cell_capacity_grams", in: 100...1_000_000, unit: "g") ?? 1000
        unplugFile = try reader.string("unplug_file")
        sampler = try SamplerSettings(&reader)
        if let unplugFile, !unplugFile.hasPrefix("/") {
            throw reader.error(
                "unplug_file",
                "unplug_file = \"\(unplugFile)\" must be an absolute path, such as \"/tmp/left.unplugged\"")
        }
    }
}

extension SimulatedFSRWiring {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        seed = UInt64(try reader.int("seed", in: 0...Int.max, unit: "") ?? 1)
        dataRate = try ADS1115Wiring.dataRate(&reader)
        load = try SimulatedLoad(&reader)
        divider = try ADS1115Wiring.divider(&reader, required: false) ?? FSRDivider.standard
    }
}

extension ReplayWiring {
    init(_ reader: inout TOMLReader, sensorName: String) throws(ConfigurationError) {
        path = try reader.requiredString("path", example: "\"/var/lib/plumscale/traces/morning.csv\"")
        traceSensor = try reader.string("trace_sensor") ?? sensorName
        realTime = try reader.choice("pace", [("realtime", true), ("fast", false)]) ?? true
    }
}

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
