/// A kernel IIO device in sysfs, such as the ADS1115 (`ads1015` driver) or the HX711
/// (`hx711` driver), read through its attribute files.
///
/// Mirrors the kernel's IIO sysfs ABI (Documentation/ABI/testing/sysfs-bus-iio): a channel's
/// value in volts is `(raw + offset) × scale / 1000` (scale is in millivolts per count for
/// voltage channels). Attributes may be per channel (`in_voltage0_scale`) or shared by every
/// voltage channel (`in_voltage_scale`, as the hx711 driver does); both are looked up.
///
/// The root directory is configurable, so tests build a fake tree in a temporary directory.
public struct IIODevice: Hashable, Sendable, CustomStringConvertible {
    public static let defaultRoot = "/sys/bus/iio/devices"

    /// The directory holding the `iio:deviceN` entries.
    public let root: String
    /// The entry name, such as `iio:device0`.
    public let id: String
    /// The driver's device name from the `name` file, such as `ads1015` or `hx711`.
    public let name: String

    /// The device's directory.
    public var path: String { root + "/" + id }

    /// Finds a device by its entry ("iio:device0") or by its `name` file ("hx711").
    /// - Throws: ``HardwareError/Code/notFound`` listing the devices that do exist.
    public init(_ spec: String, root: String = IIODevice.defaultRoot) throws(HardwareError) {
        let devices = try IIODevice.all(root: root)
        let wanted = spec.trimmingWhitespace
        guard
            let device = devices.first(where: { $0.id == wanted })
                ?? devices.first(where: { $0.name == wanted })
        else {
            let hint =
                devices.isEmpty
                ? "no IIO devices in \(root); load the driver (a dtoverlay line in config.txt) and reboot"
                : "devices here: " + devices.map(\.description).joined(separator: ", ")
            throw HardwareError(
                .notFound, operation: "finding", subject: "IIO device '\(spec)'",
                detail: "no device with that entry or name", hint: hint)
        }
        self = device
    }

    init(root: String, id: String, name: String) {
        self.root = root
        self.id = id
        self.name = name
    }

    /// Every `iio:deviceN` under `root` with its name, in device order. A missing root is an
    /// empty list (no IIO driver loaded), not an error.
    public static func all(root: String = IIODevice.defaultRoot) throws(HardwareError) -> [IIODevice] {
        let entries: [String]
        switch Syscalls.listDirectory(root) {
        case .success(let names): entries = names
        case .failure(.noSuchFileOrDirectory): return []
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "listing", subject: root, errno: errno)
        }
        let ids = entries.filter { $0.hasPrefix("iio:device") }
            .sorted { ($0.count, $0) < ($1.count, $1) }
        var devices: [IIODevice] = []
        for id in ids {
            let name = ((try? readText(root + "/" + id + "/name")) ?? "").trimmingWhitespace
            devices.append(IIODevice(root: root, id: id, name: name))
        }
        return devices
    }

    /// "iio:device0 [ads1015]".
    public var description: String { "\(id) [\(name)]" }

    /// The voltage channels that have a `_raw` attribute, sorted.
    public func voltageChannels() throws(HardwareError) -> [IIOChannel] {
        switch Syscalls.listDirectory(path) {
        case .success(let names):
            return names.compactMap { name -> IIOChannel? in
                guard name.hasPrefix("in_"), name.hasSuffix("_raw") else { return nil }
                return IIOChannel(attributeStem: String(name.dropFirst(3).dropLast(4)))
            }.sorted()
        case .failure(let errno):
            throw HardwareError(
                errno == .noSuchFileOrDirectory ? .notFound : .systemCall,
                operation: "listing", subject: path, errno: errno)
        }
    }

    /// The channel's raw count, `in_voltageY_raw`. Reading it makes the driver convert.
    /// - Throws: ``HardwareError``: `.notFound` for a channel the device lacks, `.malformed`
    ///   naming the file and text for anything but an integer, the driver's errno otherwise.
    public func raw(_ channel: IIOChannel) throws(HardwareError) -> Int {
        let file = "\(path)/\(channel.attributePrefix)_raw"
        let text: String
        do throws(HardwareError) {
            text = try IIODevice.readText(file)
        } catch  where error.code == .notFound {
            var error = error
            let channels = (try? voltageChannels()) ?? []
            error.hint =
                channels.isEmpty
                ? "\(description) has no voltage channels"
                : "\(description) has channels " + channels.map(\.description).joined(separator: ", ")
            throw error
        }
        return try IIODevice.parse(text, file: file, expected: "an integer") { Int($0) }
    }

    /// The channel's scale: `in_voltageY_scale`, else the shared `in_voltage_scale`.
    /// - Throws: ``HardwareError/Code/notFound`` when neither exists.
    public func scale(_ channel: IIOChannel) throws(HardwareError) -> Double {
        guard let scale = try number(channel, "scale") else {
            throw HardwareError(
                .notFound, operation: "reading", subject: "\(path)/\(channel.attributePrefix)_scale",
                detail: "neither it nor in_voltage_scale exists",
                hint: "the driver gives no scale; calibrate against known weights instead")
        }
        return scale
    }

    /// The channel's offset in counts: `in_voltageY_offset`, else `in_voltage_offset`, else 0.
    public func offset(_ channel: IIOChannel) throws(HardwareError) -> Double {
        try number(channel, "offset") ?? 0
    }

    /// The sampling frequency in hertz, per channel (ads1015), shared, or device-wide; `nil`
    /// when the driver has none (hx711: the chip's RATE pin sets it).
    public func samplingFrequency(_ channel: IIOChannel) throws(HardwareError) -> Double? {
        if let frequency = try number(channel, "sampling_frequency") { return frequency }
        return try IIODevice.optionalNumber("\(path)/sampling_frequency")
    }

    /// The scales the driver can switch to (`in_voltageY_scale_available`, else
    /// `in_voltage_scale_available`); with the hx711 driver each one is a gain. Empty when absent.
    public func availableScales(_ channel: IIOChannel) throws(HardwareError) -> [Double] {
        for file in candidates(channel, "scale_available") {
            guard let text = try IIODevice.optionalText(file) else { continue }
            var scales: [Double] = []
            for word in text.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }) {
                scales.append(
                    try IIODevice.parse(String(word), file: file, expected: "numbers", IIODevice.finiteDouble))
            }
            return scales
        }
        return []
    }

    private func candidates(_ channel: IIOChannel, _ attribute: String) -> [String] {
        ["\(path)/\(channel.attributePrefix)_\(attribute)", "\(path)/in_voltage_\(attribute)"]
    }

    private func number(_ channel: IIOChannel, _ attribute: String) throws(HardwareError) -> Double? {
        for file in candidates(channel, attribute) {
            if let value = try IIODevice.optionalNumber(file) { return value }
        }
        return nil
    }

    // MARK: Files (the internal layer)

    static func readText(_ file: String) throws(HardwareError) -> String {
        switch Syscalls.readSmallFile(file) {
        case .success(let text): return text
        case .failure(let errno):
            throw HardwareError(
                errno == .noSuchFileOrDirectory ? .notFound : .systemCall,
                operation: "reading", subject: file, errno: errno)
        }
    }

    static func optionalText(_ file: String) throws(HardwareError) -> String? {
        switch Syscalls.readSmallFile(file) {
        case .success(let text): return text
        case .failure(.noSuchFileOrDirectory): return nil
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "reading", subject: file, errno: errno)
        }
    }

    static func optionalNumber(_ file: String) throws(HardwareError) -> Double? {
        guard let text = try optionalText(file) else { return nil }
        return try parse(text, file: file, expected: "a number", finiteDouble)
    }

    /// sysfs never writes "nan" or "inf"; if it appears, the file is not what it claims to be.
    static func finiteDouble(_ text: String) -> Double? {
        Double(text).flatMap { $0.isFinite ? $0 : nil }
    }

    static func parse<T>(
        _ text: String, file: String, expected: String, _ convert: (String) -> T?
    ) throws(HardwareError) -> T {
        let trimmed = text.trimmingWhitespace
        guard let value = convert(trimmed) else {
            throw HardwareError(
                .malformed, operation: "parsing", subject: file,
                detail: "expected \(expected), found '\(trimmed)'")
        }
        return value
    }
}
