internal import PlumHardware
internal import PlumSystem

/// One I2C bus the kernel offers as `/dev/i2c-N`, with its adapter's name.
package struct I2CBusFinding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The N of `/dev/i2c-N`.
    package var number: Int
    package var path: String
    /// The adapter's name from sysfs (`i2c-dev/i2c-N/name`), such as "bcm2835 (i2c@7e804000)"
    /// or "SMBus stub driver"; `nil` when sysfs does not say.
    package var adapter: String?

    package init(number: Int, path: String, adapter: String?) {
        self.number = number
        self.path = path
        self.adapter = adapter
    }

    /// The device at `address` on this bus, through i2c-dev: what every finding's scan opens.
    func device(at address: UInt8) throws(HardwareError) -> I2CDevice {
        try I2CDevice(bus: I2CBusSpec(path: path, number: number), address: I2CAddress.checked(address))
    }

    /// "i2c-1 0x48": where a finding is, for its description.
    static func place(bus: Int?, address: UInt8) -> String {
        (bus.map { "i2c-\($0) " } ?? "") + (I2CAddress(rawValue: address)?.description ?? "\(address)")
    }

    /// Every `i2c-N` in the device directory, in bus order, with the adapter names the class
    /// directory gives. A missing device directory is no bus, not an error: I2C is off.
    package static func all(_ roots: ProbeRoots) -> [I2CBusFinding] {
        guard case .success(let names) = Syscalls.listDirectory(roots.deviceDirectory) else { return [] }
        return names.compactMap(busNumber).sorted().map { number in
            let name = "i2c-\(number)"
            let adapter: String? =
                switch Syscalls.readSmallFile(roots.i2cClassDirectory + "/" + name + "/name") {
                case .success(let text): text.trimmed.isEmpty ? nil : text.trimmed
                case .failure: nil
                }
            return I2CBusFinding(number: number, path: roots.deviceDirectory + "/" + name, adapter: adapter)
        }
    }

    /// The N of a device file named `i2c-N`; `nil` for any other name.
    package static func busNumber(_ fileName: String) -> Int? {
        guard fileName.hasPrefix("i2c-") else { return nil }
        let digits = fileName.dropFirst(4)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// "/dev/i2c-1 (bcm2835 (i2c@7e804000))".
    package var description: String { adapter.map { "\(path) (\($0))" } ?? path }
}

extension Character {
    var isASCIIDigit: Bool { ("0"..."9").contains(self) }
}

extension String {
    /// Without surrounding spaces and newlines (sysfs attributes end in a newline).
    var trimmed: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
