/// Everything the probe found: the board, its GPIO chips, I2C buses, ADS1115s, IIO devices,
/// displays (on I2C, and framebuffers) and, when it could watch one, an HX711.
///
/// The probe reads only: device-tree and sysfs files, chip and bus listings, the ADS1115's
/// Config register, one received byte at each display address (``I2CDisplayFinding``). The one
/// line it drives is the HX711's PD_SCK, held low except for the 25 pulses that read each
/// conversion out (see ``HX711Watch``).
package struct HardwareReport: Hashable, Sendable, Encodable, CustomStringConvertible {
    package var board: BoardModel
    package var gpioChips: [GPIOChipFinding]
    package var i2cBuses: [I2CBusFinding]
    /// The addresses where something answered (absent addresses are left out).
    package var ads1115: [ADS1115Finding]
    package var iio: [IIOFinding]
    /// The display addresses where something answered (absent addresses are left out).
    package var displays: [I2CDisplayFinding]
    package var framebuffers: [FramebufferFinding]
    /// The HX711 watch, or `nil` when no chip was named and no Pi header chip was found.
    package var hx711: HX711Finding?
    /// Why the HX711 was not watched, when it was not.
    package var hx711Skipped: String?

    enum CodingKeys: String, CodingKey {
        case board
        case gpioChips = "gpio_chips"
        case i2cBuses = "i2c_buses"
        case ads1115, iio, hx711, displays, framebuffers
        case hx711Skipped = "hx711_skipped"
    }

    /// Runs every part of the probe.
    /// - Parameters:
    ///   - pins: the HX711's pins; a `nil` chip means the Pi header's chip among those found.
    ///   - window: how long to watch DOUT.
    package static func probe(
        _ roots: ProbeRoots = ProbeRoots(), pins: HX711Pins? = .readme, window: Duration = .milliseconds(1500)
    ) -> HardwareReport {
        let chips = GPIOChipFinding.all(roots)
        let buses = I2CBusFinding.all(roots)
        var report = HardwareReport(
            board: BoardModel.read(roots), gpioChips: chips, i2cBuses: buses,
            ads1115: buses.flatMap { ADS1115Finding.scan($0) }.filter { $0.state != .absent },
            iio: IIOFinding.all(roots),
            displays: buses.flatMap { I2CDisplayFinding.scan($0) }.filter { $0.state != .absent },
            framebuffers: FramebufferFinding.all(roots))
        guard let pins else {
            report.hx711Skipped = "no HX711 pins named"
            return report
        }
        guard let chip = pins.chip ?? chips.first(where: { $0.role == .piHeader })?.label else {
            report.hx711Skipped =
                "no Raspberry Pi header chip (pinctrl-bcm2835, pinctrl-bcm2711 or pinctrl-rp1) among "
                + "\(chips.isEmpty ? "no GPIO chips" : chips.map(\.label).joined(separator: ", ")); "
                + "name the chip with --chip"
            return report
        }
        report.hx711 = HX711Finding.watch(pins, chip: chip, roots: roots, window: window)
        return report
    }

    package init(
        board: BoardModel, gpioChips: [GPIOChipFinding], i2cBuses: [I2CBusFinding], ads1115: [ADS1115Finding],
        iio: [IIOFinding], displays: [I2CDisplayFinding] = [], framebuffers: [FramebufferFinding] = [],
        hx711: HX711Finding? = nil, hx711Skipped: String? = nil
    ) {
        self.board = board
        self.gpioChips = gpioChips
        self.i2cBuses = i2cBuses
        self.ads1115 = ads1115
        self.iio = iio
        self.displays = displays
        self.framebuffers = framebuffers
        self.hx711 = hx711
        self.hx711Skipped = hx711Skipped
    }

    /// The report as a person reads it, one section per kind of hardware.
    package var description: String {
        func section(_ title: String, _ items: [String], none: String) -> [String] {
            [title + ":"] + (items.isEmpty ? ["  " + none] : items.map { "  " + $0 })
        }
        var lines = ["Board: \(board)"]
        lines += section("GPIO chips", gpioChips.map(\.description), none: "none (no /dev/gpiochip* to open)")
        lines += section(
            "I2C buses", i2cBuses.map(\.description),
            none: "none: enable I2C (raspi-config, or dtparam=i2c_arm=on in config.txt) for an ADS1115")
        lines += section(
            "ADS1115 (0x48-0x4B, Config register read only)", ads1115.map(\.description),
            none: i2cBuses.isEmpty ? "no bus to look on" : "nothing answers at 0x48-0x4B")
        lines += section("IIO devices", iio.map(\.description), none: "none")
        lines += section(
            "Displays on I2C (0x20-0x27, 0x38-0x3F, a received byte only)", displays.map(\.description),
            none: i2cBuses.isEmpty ? "no bus to look on" : "nothing answers at 0x20-0x27 or 0x38-0x3F")
        lines += section("Framebuffers", framebuffers.map(\.description), none: "none")
        lines.append("HX711:")
        if let hx711 {
            lines += hx711.description.split(separator: "\n", omittingEmptySubsequences: false).map { "  " + $0 }
        } else {
            lines.append("  not watched: \(hx711Skipped ?? "no pins")")
        }
        return lines.joined(separator: "\n")
    }
}
