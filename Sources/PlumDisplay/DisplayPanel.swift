package import PlumDrivers
package import PlumHardware
package import PlumSystem

/// A panel the display service draws on: the layout for its surface, then its driver, which
/// sends only what changed.
package protocol DisplayPanel {
    /// "SSD1306 128×64 on i2c-1 address 0x3c", for the log and errors.
    var description: String { get }
    /// Brings the panel to a known state (its init sequence and a cleared screen). Called again
    /// after a failure: the panel may have lost power.
    mutating func start() throws(HardwareError)
    /// Draws `picture`; `phase` picks the pan when they alternate.
    /// - Returns: the bytes put on the bus or into the framebuffer for this refresh.
    mutating func show(_ picture: DisplayPicture, phase: Int) throws(HardwareError) -> Int
}

/// An SSD1306 OLED: the pixel layout, then the driver's changed columns.
package struct OLEDPanel<Bus: SMBusDevice>: DisplayPanel {
    package var driver: SSD1306<Bus>
    let geometry: SSD1306<Bus>.Geometry
    /// After each refresh, for a chip model: the image it now shows (a PBM to a file).
    let afterShow: ((Bus) -> Void)?

    package init(driver: SSD1306<Bus>, geometry: SSD1306<Bus>.Geometry, afterShow: ((Bus) -> Void)? = nil) {
        self.driver = driver
        self.geometry = geometry
        self.afterShow = afterShow
    }

    package var description: String { "SSD1306 \(geometry.width)×\(geometry.height) on \(driver.bus.subject)" }

    package mutating func start() throws(HardwareError) {
        try driver.start()
        afterShow?(driver.bus)
    }

    package mutating func show(_ picture: DisplayPicture, phase: Int) throws(HardwareError) -> Int {
        var frame = MonoBitmap(width: geometry.width, height: geometry.height)
        PixelLayout.draw(picture, on: &frame, phase: phase)
        let bytes = try driver.show(frame)
        afterShow?(driver.bus)
        return bytes
    }
}

/// An HD44780 character LCD behind a PCF8574: the character layout, then the changed cells.
package struct LCDPanel<Bus: SMBusDevice, Clock: MonotonicClock>: DisplayPanel {
    package var driver: HD44780<Bus, Clock>
    let columns: Int
    let rows: Int
    let afterShow: ((Bus) -> Void)?

    package init(driver: HD44780<Bus, Clock>, columns: Int, rows: Int, afterShow: ((Bus) -> Void)? = nil) {
        self.driver = driver
        self.columns = columns
        self.rows = rows
        self.afterShow = afterShow
    }

    package var description: String { "HD44780 \(columns)×\(rows) on \(driver.bus.subject)" }

    package mutating func start() throws(HardwareError) {
        try driver.start()
        afterShow?(driver.bus)
    }

    package mutating func show(_ picture: DisplayPicture, phase: Int) throws(HardwareError) -> Int {
        let screen = CharacterLayout.draw(picture, columns: columns, rows: rows, phase: phase)
        let bytes = try driver.show(screen)
        afterShow?(driver.bus)
        return bytes
    }
}

/// A framebuffer (`/dev/fbN`): the pixel layout in colour, at the kernel's size, then the
/// rows that changed.
package struct FramebufferOutput<Device: FramebufferMemory>: DisplayPanel {
    package var panel: FramebufferPanel<Device>
    let path: String
    /// Mounted upside down: the image is turned half a turn before it is written.
    let rotated180: Bool

    package init(device: Device, path: String, rotated180: Bool = false) throws(HardwareError) {
        panel = try FramebufferPanel(device: device)
        self.path = path
        self.rotated180 = rotated180
    }

    package var description: String {
        "framebuffer \(path) (\(panel.device.info.width)×\(panel.device.info.height), "
            + "\(panel.device.info.bitsPerPixel) bpp)"
    }

    package mutating func start() throws(HardwareError) {}

    package mutating func show(_ picture: DisplayPicture, phase: Int) throws(HardwareError) -> Int {
        var image = ColourBitmap(width: panel.device.info.width, height: panel.device.info.height)
        PixelLayout.draw(picture, on: &image, phase: phase)
        return try panel.show(rotated180 ? Self.halfTurn(image) : image)
    }

    static func halfTurn(_ image: ColourBitmap) -> ColourBitmap {
        var turned = image
        for y in 0..<image.height {
            for x in 0..<image.width { turned[image.width - 1 - x, image.height - 1 - y] = image[x, y] }
        }
        return turned
    }
}

/// A panel whose device is opened by ``start()``, again after every failure: a bus or a
/// framebuffer that is missing at boot, or refuses this user, is then logged once and tried
/// again with the service's back-off, as a panel that stops answering is, rather than ending the
/// program.
package struct ReopeningPanel: DisplayPanel {
    package let description: String
    let open: () throws(HardwareError) -> any DisplayPanel
    var panel: (any DisplayPanel)?

    package init(description: String, open: @escaping () throws(HardwareError) -> any DisplayPanel) {
        self.description = description
        self.open = open
    }

    package mutating func start() throws(HardwareError) {
        panel = nil
        var opened = try open()
        try opened.start()
        panel = opened
    }

    package mutating func show(_ picture: DisplayPicture, phase: Int) throws(HardwareError) -> Int {
        if panel == nil { try start() }
        guard var opened = panel else { return 0 }
        defer { panel = opened }
        return try opened.show(picture, phase: phase)
    }

    /// The panel inside, once open (the check's read-back needs the framebuffer itself).
    package var opened: (any DisplayPanel)? { panel }
}
