internal import TOMLKit
import PlumDrivers

/// Parsing of one `[[sensor]]` table, per kind.
extension SensorConfiguration {
    static func parse(
        _ table: TOMLTable, index: Int, file: String, locator: SourceLocator, section: SourceLocator.Section
    ) throws(ConfigurationError) -> SensorConfiguration {
        var reader = TOMLReader(table: table, file: file, path: "sensor[\(index)]", locator: locator, section: section)
        let name = try reader.requiredString("name", example: "\"left\"")
        guard Self.isValidName(name) else {
            throw reader.error("name", "name = \"\(name)\" is not allowed; use letters, digits, '-' and '_' (1 to 32 characters)")
        }
        reader = TOMLReader(table: table, file: file, path: "sensor \"\(name)\"", locator: locator, section: section)
        _ = try reader.string("name")
        let kinds = SensorKind.allCases.map { ($0.rawValue, $0) }
        guard let kind = try reader.choice("kind", kinds) else {
            throw reader.error(nil, "missing key kind; use \(TOMLReader.list(kinds.map { $0.0 }))")
        }
        let wiring: SensorWiring
        switch kind {
        case .hx711: wiring = .hx711(try HX711Wiring(&reader))
        case .ads1115: wiring = .ads1115(try ADS1115Wiring(&reader))
        case .iio: wiring = .iio(try IIOWiring(&reader))
        case .simulatedHX711: wiring = .simulatedHX711(try SimulatedHX711Wiring(&reader))
        case .simulatedFSR: wiring = .simulatedFSR(try SimulatedFSRWiring(&reader))
        case .replay: wiring = .replay(try ReplayWiring(&reader, sensorName: name))
        }
        try reader.rejectUnknownKeys()
        return SensorConfiguration(name: name, wiring: wiring, line: locator.line(of: section))
    }

    /// Names go into socket messages, file names and command lines: keep them plain.
    public static func isValidName(_ name: String) -> Bool {
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
    static func driverConfiguration(_ reader: inout TOMLReader, defaultRate: Int) throws(ConfigurationError) -> HX711Configuration {
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
            throw reader.error(reader.has(key + "_ms") ? key + "_ms" : (reader.has(key + "_us") ? key + "_us" : nil), error.description)
        }
    }
}

extension ADS1115Wiring {
    static let channels = ["AIN0", "AIN1", "AIN2", "AIN3", "AIN0-AIN1", "AIN0-AIN3", "AIN1-AIN3", "AIN2-AIN3"]
    static let fullScales: [Double] = [6.144, 4.096, 2.048, 1.024, 0.512, 0.256]
    static let dataRates = [8, 16, 32, 64, 128, 250, 475, 860]

    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        guard let bus = try reader.stringOrInt("bus") else {
            throw reader.error(nil, "missing key bus; the I2C bus number, for example bus = 1 for /dev/i2c-1")
        }
        self.bus = bus
        address = try reader.int("address") ?? 0x48
        guard (0x48...0x4B).contains(address) else {
            throw reader.error("address", "address = 0x\(String(address, radix: 16)) is not an ADS1115 address; use 0x48 (ADDR to GND), 0x49 (VDD), 0x4A (SDA) or 0x4B (SCL)")
        }
        channel = try reader.choice("channel", Self.channels.map { ($0, $0) }) ?? "AIN0"
        let volts = try reader.double("pga_volts") ?? 4.096
        guard let scale = Self.fullScales.first(where: { abs($0 - volts) < 1e-6 }) else {
            throw reader.error("pga_volts", "pga_volts = \(volts) is not an ADS1115 range; use \(TOMLReader.list(Self.fullScales.map { String($0) }))")
        }
        pgaVolts = scale
        dataRate = try reader.choice("data_rate", Self.dataRates.map { (String($0), $0) }) ?? 128
        continuous = try reader.choice("mode", [("single-shot", false), ("continuous", true)]) ?? false
        let alertChip = try reader.string("alert_chip")
        let alertLine = try reader.stringOrInt("alert_line")
        switch (alertChip, alertLine) {
        case (nil, nil): alert = nil
        case let (chip?, line?): alert = AlertWiring(chip: chip, line: line)
        case (nil, _?): throw reader.error("alert_line", "alert_line needs alert_chip too, for example alert_chip = \"gpiochip0\"")
        case (_?, nil): throw reader.error("alert_chip", "alert_chip needs alert_line too, for example alert_line = \"GPIO17\"")
        }
        divider = try DividerWiring(&reader, required: false)
    }
}

extension ADS1115Wiring.DividerWiring {
    /// Reads `divider_ohms`, `supply_volts` and `fsr_side`; nil when no divider is configured
    /// and `required` is false.
    init?(_ reader: inout TOMLReader, required: Bool) throws(ConfigurationError) {
        let ohms = try reader.double("divider_ohms", in: 100...10_000_000, unit: "Ω")
        let supply = try reader.double("supply_volts", in: 0.5...5.5, unit: "V")
        let side = try reader.choice("fsr_side", [("supply", true), ("ground", false)])
        guard let ohms else {
            if required || supply != nil || side != nil {
                throw reader.error(nil, "missing key divider_ohms; the fixed resistor of the FSR divider, for example divider_ohms = 10000")
            }
            return nil
        }
        self.init(fixedOhms: ohms, supplyVolts: supply ?? 3.3, fsrToSupply: side ?? true)
    }
}

extension IIOWiring {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        device = try reader.requiredString("device", example: "\"iio:device0\" or the device's name, such as \"ads1115\"")
        channel = try reader.int("channel", in: 0...15, unit: "(in_voltageN_raw)") ?? 0
        root = try reader.string("root") ?? "/sys/bus/iio/devices"
        pollRate = try reader.double("poll_rate", in: 0.1...1000, unit: "samples per second") ?? 10
    }
}

extension SimulatedLoad {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        if let grams = try reader.double("load_grams", in: 0...100_000, unit: "g") {
            self = .constant(grams: grams)
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
    }
}

extension SimulatedFSRWiring {
    init(_ reader: inout TOMLReader) throws(ConfigurationError) {
        seed = UInt64(try reader.int("seed", in: 0...Int.max, unit: "") ?? 1)
        dataRate = try reader.choice("data_rate", ADS1115Wiring.dataRates.map { (String($0), $0) }) ?? 128
        load = try SimulatedLoad(&reader)
        divider = try ADS1115Wiring.DividerWiring(&reader, required: false)
            ?? ADS1115Wiring.DividerWiring(fixedOhms: 10_000, supplyVolts: 3.3, fsrToSupply: true)
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
