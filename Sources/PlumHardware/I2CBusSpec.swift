/// Which I2C bus: "1", "i2c-1" or "/dev/i2c-1" all name bus 1.
///
/// On a Raspberry Pi the header pins 3 and 5 are bus 1 (`dtparam=i2c_arm=on`).
public struct I2CBusSpec: Hashable, Sendable, CustomStringConvertible {
    /// The character device, such as `/dev/i2c-1`.
    public var path: String
    /// The bus number, when the path ends in `i2c-N` (used in `i2cdetect -y N` hints).
    public var number: Int?

    public init(number: Int) {
        self.init(path: "/dev/i2c-\(number)", number: number)
    }

    /// A bus by device path, such as a udev symlink; `number` feeds the `i2cdetect` hints.
    public init(path: String, number: Int? = nil) {
        self.path = path
        self.number = number
    }

    /// Parses "1", "i2c-1" or an absolute path such as "/dev/i2c-1".
    /// - Throws: ``HardwareError/Code/invalidRequest`` naming the text and the accepted forms.
    public init(parsing text: String) throws(HardwareError) {
        let trimmed = text.trimmingWhitespace
        if let number = Int(trimmed), number >= 0 {
            self.init(number: number)
        } else if trimmed.hasPrefix("i2c-"), let number = Int(trimmed.dropFirst(4)), number >= 0 {
            self.init(number: number)
        } else if trimmed.hasPrefix("/"), trimmed.count > 1 {
            let last = trimmed.split(separator: "/").last ?? ""
            self.init(path: trimmed, number: last.hasPrefix("i2c-") ? Int(last.dropFirst(4)) : nil)
        } else {
            throw HardwareError(
                .invalidRequest, operation: "parsing I2C bus", subject: "'\(text)'",
                detail: "not a bus number, i2c-N name or /dev path",
                hint: "give 1, i2c-1 or /dev/i2c-1 (i2cdetect -l lists the buses)")
        }
    }

    /// "i2c-1", as `i2cdetect -l` names the bus, or the path when it has no number.
    public var description: String { number.map { "i2c-\($0)" } ?? path }
}
