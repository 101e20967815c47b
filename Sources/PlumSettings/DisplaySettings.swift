package import TOMLKit

/// The `[display]` table: which local panel `plumscale-display` draws on. plumscaled checks the
/// table too, so a typo is caught by whichever program reads the file first.
///
///     [display]
///     kind = "ssd1306"         # "ssd1306", "hd44780", "framebuffer",
///                              # "simulated-ssd1306", "simulated-hd44780"
///     bus = 1                  # the I2C bus (ssd1306, hd44780): 1 is /dev/i2c-1
///     address = 0x3C           # 0x3C for an SSD1306, 0x27 for a PCF8574 backpack
///     size = "128x64"          # ssd1306: "128x64" or "128x32"; hd44780: "16x2", "20x4",
///                              # "16x4", "20x2" or "8x2"
///     device = "/dev/fb1"      # framebuffer
///     contrast = 207           # ssd1306: 0…255
///     rotate = 0               # 0 or 180 (an OLED or a framebuffer mounted upside down)
///     backlight = true         # hd44780
///     frame_file = "/run/plumscale-display/display.pbm"   # simulated kinds: the panel's image
///     sensors = ["left", "right"]                 # the pans shown; all when absent
///     alternate_seconds = 4    # how long each pan shows when they do not fit side by side
package struct DisplaySettings: Hashable, Sendable {
    /// The panels `plumscale-display` drives.
    package enum Kind: String, Hashable, Sendable, CaseIterable {
        case ssd1306
        case hd44780
        case framebuffer
        case simulatedSSD1306 = "simulated-ssd1306"
        case simulatedHD44780 = "simulated-hd44780"

        /// Whether the panel is a character LCD rather than pixels.
        package var isCharacterPanel: Bool { self == .hd44780 || self == .simulatedHD44780 }
        /// Whether it is a chip model in memory rather than hardware.
        package var isSimulated: Bool { self == .simulatedSSD1306 || self == .simulatedHD44780 }
        /// Whether it sits on an I2C bus.
        package var isI2C: Bool { self == .ssd1306 || self == .hd44780 }
    }

    /// A panel's size: pixels for an OLED, characters for an LCD.
    package struct Size: Hashable, Sendable, CustomStringConvertible {
        package var width: Int
        package var height: Int

        package init(width: Int, height: Int) {
            self.width = width
            self.height = height
        }

        package var description: String { "\(width)x\(height)" }
    }

    package static let pixelSizes = [Size(width: 128, height: 64), Size(width: 128, height: 32)]
    /// The LCDs the HD44780 driver knows, the usual first.
    package static let characterSizes = [
        Size(width: 16, height: 2), Size(width: 20, height: 4), Size(width: 16, height: 4),
        Size(width: 20, height: 2), Size(width: 8, height: 2)
    ]

    /// The sizes a kind takes, the default first; empty for a framebuffer (the kernel's).
    package static func sizes(for kind: Kind) -> [Size] {
        kind == .framebuffer ? [] : kind.isCharacterPanel ? characterSizes : pixelSizes
    }

    package var kind: Kind = .simulatedSSD1306
    /// The I2C bus number: 1 is `/dev/i2c-1`.
    package var bus = 1
    /// The 7-bit I2C address; nil: the kind's usual one (``defaultAddress``).
    package var address: Int?
    /// nil: 128×64 for an OLED, 16×2 for an LCD; a framebuffer's size comes from the kernel.
    package var size: Size?
    package var device = "/dev/fb0"
    package var contrast = 0xCF
    package var rotated180 = false
    package var backlight = true
    /// Where a simulated panel's image goes after every refresh: a PBM (OLED) or the rows as
    /// text (LCD). nil writes nothing.
    package var frameFile: String?
    /// The pans shown, in order; empty: every sensor the daemon reports.
    package var sensors: [String] = []
    package var alternateSeconds = 4

    package init() {}

    /// The address used when none is given.
    package var defaultAddress: Int { kind.isCharacterPanel ? 0x27 : 0x3C }
    /// The address in effect.
    package var effectiveAddress: Int { address ?? defaultAddress }
    /// The size in effect for an I2C or simulated panel.
    package var effectiveSize: Size {
        size ?? (kind.isCharacterPanel ? DisplaySettings.characterSizes[0] : DisplaySettings.pixelSizes[0])
    }

    /// The `[display]` table of the configuration file at `path`; nil when the table is absent.
    package static func load(path: String) throws(ConfigurationError) -> DisplaySettings? {
        let text = try ConfigurationFile.text(at: path)
        let table = try TOMLTable.parse(text, file: path)
        return try parse(table: table, file: path, locator: SourceLocator(text: text))
    }

    /// Parses the `[display]` table out of configuration text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ConfigurationError) -> DisplaySettings? {
        let table = try TOMLTable.parse(text, file: file)
        return try parse(table: table, file: file, locator: SourceLocator(text: text))
    }

    /// Parses the `[display]` table; nil when there is none.
    package static func parse(
        table: TOMLTable, file: String, locator: SourceLocator
    ) throws(ConfigurationError) -> DisplaySettings? {
        guard let value = table["display"] else { return nil }
        guard let displayTable = value.table else {
            let root = TOMLReader(table: table, file: file, path: "", locator: locator, section: .root)
            throw root.error("display", "expected a table [display]")
        }
        var reader = TOMLReader(
            table: displayTable, file: file, path: "display", locator: locator, section: .table("display"))
        var settings = DisplaySettings()
        guard let kind = try reader.choice("kind", Kind.allCases.map { ($0.rawValue, $0) }) else {
            throw reader.error(
                "kind",
                "[display] needs kind = \"ssd1306\", \"hd44780\", \"framebuffer\", \"simulated-ssd1306\" "
                    + "or \"simulated-hd44780\"")
        }
        settings.kind = kind
        settings.bus = try reader.int("bus", in: 0...255, unit: "(the N of /dev/i2c-N)") ?? 1
        if let address = try reader.int("address") {
            guard (0x03...0x77).contains(address) else {
                throw reader.error(
                    "address",
                    "address = \(address) is outside the 7-bit range 0x03…0x77; write what i2cdetect shows, "
                        + "such as 0x3C")
            }
            settings.address = address
        }
        if let text = try reader.string("size") {
            let allowed = kind.isCharacterPanel ? characterSizes : pixelSizes
            guard kind != .framebuffer else {
                throw reader.error("size", "a framebuffer's size comes from the kernel; remove size")
            }
            guard let size = allowed.first(where: { $0.description == text.lowercased() }) else {
                let names = allowed.map { "\"\($0)\"" }
                throw reader.error(
                    "size", "size = \"\(text)\" is not a \(kind.rawValue) panel; use \(TOMLReader.list(names))")
            }
            settings.size = size
        }
        if let device = try reader.string("device") {
            guard device.hasPrefix("/") else {
                throw reader.error("device", "device = \"\(device)\" must be a path such as \"/dev/fb1\"")
            }
            settings.device = device
        }
        settings.contrast = try reader.int("contrast", in: 0...255, unit: "(the SSD1306's contrast)") ?? 0xCF
        settings.rotated180 = try reader.choice("rotate", [("0", false), ("180", true)]) ?? false
        if settings.rotated180 && kind.isCharacterPanel {
            throw reader.error(
                "rotate", "a character LCD cannot turn its letters over; remove rotate, or mount the panel upright")
        }
        settings.backlight = try reader.bool("backlight") ?? true
        if let path = try reader.string("frame_file") {
            guard path.hasPrefix("/") else {
                throw reader.error(
                    "frame_file",
                    "frame_file = \"\(path)\" must be an absolute path, such as \"/run/plumscale-display/display.pbm\"")
            }
            guard kind.isSimulated else {
                throw reader.error(
                    "frame_file", "frame_file is for the simulated panels; a \(kind.rawValue) shows its own frame")
            }
            settings.frameFile = path
        }
        settings.sensors = try reader.strings("sensors") ?? []
        settings.alternateSeconds = try reader.int("alternate_seconds", in: 1...60, unit: "seconds") ?? 4
        try reader.rejectUnknownKeys()
        return settings
    }
}
