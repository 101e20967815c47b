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
            let device = try I2CDevice(
                bus: I2CBusSpec(number: settings.bus), address: I2CAddress(validating: settings.effectiveAddress))
            let geometry: SSD1306<I2CDevice>.Geometry = size.height == 32 ? .w128h32 : .w128h64
            return OLEDPanel(
                driver: SSD1306(
                    bus: device, geometry: geometry, rotated180: settings.rotated180,
                    contrast: UInt8(settings.contrast)),
                geometry: geometry)
        case .hd44780:
            let device = try I2CDevice(
                bus: I2CBusSpec(number: settings.bus), address: I2CAddress(validating: settings.effectiveAddress))
            return LCDPanel(
                driver: HD44780(
                    bus: device, clock: SystemMonotonicClock(), columns: size.width, rows: size.height,
                    backlight: settings.backlight),
                columns: size.width, rows: size.height)
        case .framebuffer:
            return try FramebufferOutput(device: FramebufferDevice(path: settings.device), path: settings.device)
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
