internal import PlumDrivers
package import PlumHardware
package import PlumSettings
internal import PlumSimulation
internal import PlumSystem
internal import Synchronization

/// Builds the panel `[display]` names: the driver on its bus or device, or a chip model whose
/// image goes to `frame_file` after every refresh.
package enum PanelFactory {
    /// - Throws: ``HardwareError`` naming the bus, address or device and what to do.
    /// - Parameter frameWritten: called after a simulated panel's frame file could not be
    ///   written (once per new error), to log it.
    package static func make(
        _ settings: DisplaySettings, frameFailed: @escaping @Sendable (String) -> Void = { _ in }
    ) throws(HardwareError) -> any DisplayPanel {
        let size = settings.effectiveSize
        switch settings.kind {
        case .ssd1306:
            let geometry: SSD1306<I2CDevice>.Geometry = size.height == 32 ? .w128h32 : .w128h64
            let spec = try i2c(settings)
            return ReopeningPanel(
                description: "SSD1306 \(geometry.width)×\(geometry.height) on \(spec.bus) address \(spec.address)"
            ) { () throws(HardwareError) -> any DisplayPanel in
                OLEDPanel(
                    driver: SSD1306(
                        bus: try I2CDevice(bus: spec.bus, address: spec.address), geometry: geometry,
                        rotated180: settings.rotated180, contrast: UInt8(settings.contrast)),
                    geometry: geometry)
            }
        case .hd44780:
            let spec = try i2c(settings)
            return ReopeningPanel(
                description: "HD44780 \(size.width)×\(size.height) on \(spec.bus) address \(spec.address)"
            ) { () throws(HardwareError) -> any DisplayPanel in
                LCDPanel(
                    driver: HD44780(
                        bus: try I2CDevice(bus: spec.bus, address: spec.address), clock: SystemMonotonicClock(),
                        columns: size.width, rows: size.height, backlight: settings.backlight),
                    columns: size.width, rows: size.height)
            }
        case .framebuffer:
            let path = settings.device
            return ReopeningPanel(description: "framebuffer \(path)") { () throws(HardwareError) -> any DisplayPanel in
                try FramebufferOutput(
                    device: FramebufferDevice(path: path), path: path, rotated180: settings.rotated180)
            }
        case .simulatedSSD1306:
            let model = SSD1306Model(height: size.height, address: UInt8(settings.effectiveAddress))
            let geometry: SSD1306<SSD1306Model>.Geometry = size.height == 32 ? .w128h32 : .w128h64
            let writer = settings.frameFile.map { FrameWriter(file: FrameFile(path: $0), failed: frameFailed) }
            return OLEDPanel(
                driver: SSD1306(
                    bus: model, geometry: geometry, rotated180: settings.rotated180, contrast: UInt8(settings.contrast)),
                geometry: geometry, afterShow: writer.map { writer in { writer.write($0.frame.pbm) } })
        case .simulatedHD44780:
            let clock = SystemMonotonicClock()
            let model = HD44780Model(
                columns: size.width, rows: size.height, clock: clock, busClockHertz: nil,
                address: UInt8(settings.effectiveAddress))
            let writer = settings.frameFile.map { FrameWriter(file: FrameFile(path: $0), failed: frameFailed) }
            return LCDPanel(
                driver: HD44780(
                    bus: model, clock: clock, columns: size.width, rows: size.height, backlight: settings.backlight),
                columns: size.width, rows: size.height,
                afterShow: writer.map { writer in { writer.write($0.screen.text) } })
        }
    }
}

extension PanelFactory {
    /// The bus and address `[display]` names, checked before anything is opened.
    static func i2c(_ settings: DisplaySettings) throws(HardwareError) -> (bus: I2CBusSpec, address: I2CAddress) {
        (I2CBusSpec(number: settings.bus), try I2CAddress(validating: settings.effectiveAddress))
    }
}

/// Writes a simulated panel's frames, and reports each new failure once.
final class FrameWriter: Sendable {
    let file: FrameFile
    let failed: @Sendable (String) -> Void
    let lastError = Mutex<Errno?>(nil)

    init(file: FrameFile, failed: @escaping @Sendable (String) -> Void) {
        self.file = file
        self.failed = failed
    }

    func write(_ text: String) {
        let error = file.write(text)
        let isNew = lastError.withLock { last in
            defer { last = error }
            return error != nil && error != last
        }
        if isNew, let error {
            failed("writing the display's frame to \(file.path): \(error); check the directory exists and is writable")
        }
    }
}
