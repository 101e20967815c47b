/// One GPIO line requested as an output, such as the HX711's PD_SCK.
///
/// Mirrors a libgpiod line request (`gpiod_line_request_output` in 1.6,
/// `gpiod_chip_request_lines` with an output `gpiod_line_settings` in 2.x). The line is
/// released when the request is deinitialised. ``setValue(_:)`` is one ioctl and allocates
/// nothing, so a bit-banging loop generic over ``GPIOOutputLine`` stays straight code.
///
/// `@unchecked Sendable`: handed to the sampler thread and used there alone (see ``GPIOChip``).
public final class GPIOOutputRequest: GPIOOutputLine, @unchecked Sendable {
    /// The chip stays open while the line is requested (libgpiod 1.6 requires it).
    public let chip: GPIOChip
    public let offset: UInt32
    /// "gpiochip0 line 5 (GPIO5)", for messages.
    public let subject: String
    let handle: OpaquePointer

    init(chip: GPIOChip, handle: OpaquePointer, offset: UInt32, subject: String) {
        self.chip = chip
        self.handle = handle
        self.offset = offset
        self.subject = subject
    }

    deinit { Syscalls.gpioRequestRelease(handle) }

    /// Drives the line: `true` is active (high, unless requested active-low).
    @inline(__always)
    public func setValue(_ active: Bool) throws(HardwareError) {
        if case .failure(let errno) = Syscalls.gpioSetValue(handle, active) {
            throw HardwareError(.systemCall, operation: "setting", subject: subject, errno: errno)
        }
    }

    /// Reads back the level the line is driven to.
    public func value() throws(HardwareError) -> Bool {
        switch Syscalls.gpioGetValue(handle) {
        case .success(let value): return value
        case .failure(let errno):
            throw HardwareError(.systemCall, operation: "reading", subject: subject, errno: errno)
        }
    }
}
