/// Builds the errors of this module, each with the hint a maker on the bench needs.
///
/// The hints live in one place so that the same errno reads the same everywhere, and so that
/// tests can check them against what the tools (`gpiodetect`, `gpioinfo`, `i2cdetect`) say.
extension HardwareError {
    /// A chip could not be opened.
    static func gpioChipOpen(path: String, errno: Errno, chips: [GPIOChipInfo], directory: String) -> HardwareError {
        let code: Code = errno == .noSuchFileOrDirectory ? .notFound : .systemCall
        let hint: String?
        switch errno {
        case .noSuchFileOrDirectory:
            hint = chipListHint(chips, directory: directory)
        case .permissionDenied, .operationNotPermitted:
            hint = "add the user to group 'gpio' (sudo usermod -aG gpio $USER, then log in again)"
        case .noSuchDevice, .notATypewriter:
            hint = "\(path) is not a GPIO character device; \(chipListHint(chips, directory: directory))"
        default:
            hint = nil
        }
        return HardwareError(code, operation: "opening", subject: path, errno: errno, hint: hint)
    }

    /// "chips here: gpiochip0 [pinctrl-bcm2711] 58 lines, …" or why there are none.
    static func chipListHint(_ chips: [GPIOChipInfo], directory: String) -> String {
        if chips.isEmpty {
            return "no GPIO chips in \(directory) (gpiodetect lists them; is this a Raspberry Pi, "
                + "and does the user have access?)"
        }
        return "chips here: " + chips.map(\.description).joined(separator: ", ")
    }

    /// A line could not be requested.
    static func gpioLineRequest(
        subject: String, errno: Errno, consumer: String?, bias: GPIOBias
    ) -> HardwareError {
        let hint: String?
        switch errno {
        case .deviceBusy:
            let owner = consumer.map { $0.isEmpty ? "" : " (consumer '\($0)')" } ?? ""
            hint =
                "the line is in use by another program or a kernel driver\(owner); "
                + "gpioinfo shows the consumer"
        case .invalidArgument where bias != .asIs:
            hint = "bias \(bias) needs Linux 5.5 or newer; request with bias as-is and fit a resistor"
        case .permissionDenied, .operationNotPermitted:
            hint = "add the user to group 'gpio' (sudo usermod -aG gpio $USER, then log in again)"
        default:
            hint = nil
        }
        return HardwareError(.systemCall, operation: "requesting", subject: subject, errno: errno, hint: hint)
    }

    /// An I2C bus could not be opened.
    static func i2cBusOpen(path: String, errno: Errno) -> HardwareError {
        let hint: String?
        var code: Code = .systemCall
        switch errno {
        case .noSuchFileOrDirectory:
            code = .notFound
            hint =
                "enable I2C (sudo raspi-config nonint do_i2c 0, or dtparam=i2c_arm=on in "
                + "config.txt, then reboot) and check that i2c-dev is loaded; i2cdetect -l lists the buses"
        case .permissionDenied, .operationNotPermitted:
            hint = "add the user to group 'i2c' (sudo usermod -aG i2c $USER, then log in again)"
        default:
            hint = nil
        }
        return HardwareError(code, operation: "opening", subject: path, errno: errno, hint: hint)
    }

    /// A transfer or address selection on an I2C device failed.
    static func i2cTransfer(operation: String, subject: String, busNumber: Int?, errno: Errno) -> HardwareError {
        let detect = busNumber.map { "i2cdetect -y \($0)" } ?? "i2cdetect"
        let hint: String?
        switch errno {
        case .noSuchDeviceOrAddress, .remoteIOError:
            hint = "no device answered; check wiring, power and the address with \(detect)"
        case .deviceBusy:
            hint =
                "a kernel driver owns this address (\(detect) shows UU); unload its overlay "
                + "or read it through IIO instead"
        case .timedOut:
            hint = "the bus is stuck or too slow; check pull-ups and cable length"
        case .notATypewriter:
            hint = "this is not an I2C bus device; give /dev/i2c-N (i2cdetect -l lists them)"
        case .ioError:
            hint = "the transfer failed on the bus; check wiring, pull-ups and power"
        default:
            hint = nil
        }
        return HardwareError(.systemCall, operation: operation, subject: subject, errno: errno, hint: hint)
    }
}
