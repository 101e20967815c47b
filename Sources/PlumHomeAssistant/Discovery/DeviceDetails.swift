/// What Home Assistant's device page shows of the scale beyond its name: where plumscale-web is,
/// the area it belongs in, the Pi's serial number and model. Each is left out when unknown.
package struct DeviceDetails: Hashable, Sendable {
    /// `web_url` of `[mqtt]`: the device page's "visit" link (`configuration_url`).
    package var configurationURL: String?
    /// `area` of `[mqtt]`: Home Assistant puts a newly added scale there (`suggested_area`).
    package var suggestedArea: String?
    /// The Pi's serial number (`serial_number`).
    package var serialNumber: String?
    /// The Pi's model, such as "Raspberry Pi 4 Model B Rev 1.4" (`hw_version`).
    package var hardware: String?

    package init(
        configurationURL: String? = nil, suggestedArea: String? = nil, serialNumber: String? = nil,
        hardware: String? = nil
    ) {
        self.configurationURL = configurationURL
        self.suggestedArea = suggestedArea
        self.serialNumber = serialNumber
        self.hardware = hardware
    }

    /// The serial from /proc/device-tree/serial-number (NUL-terminated) or else from the
    /// `Serial` line of /proc/cpuinfo; nil when neither has one (not a Pi, or all zeros).
    package static func serial(deviceTree: String?, cpuinfo: String?) -> String? {
        let fromTree = deviceTree.map { $0.filter { $0.isLetter || $0.isNumber } }
        let line = cpuinfo?.split(separator: "\n").first { $0.hasPrefix("Serial") && $0.contains(":") }
        let fromInfo = line.map { String($0.split(separator: ":", maxSplits: 1)[1]).filter { !$0.isWhitespace } }
        for candidate in [fromTree, fromInfo] {
            if let serial = candidate, !serial.isEmpty, serial.contains(where: { $0 != "0" }) { return serial }
        }
        return nil
    }

    /// The model from /proc/device-tree/model (NUL-terminated); nil when absent or empty.
    package static func model(deviceTree: String?) -> String? {
        let model = deviceTree?.filter { $0 != "\0" }.trimmingSpaces
        return model?.isEmpty == false ? model : nil
    }
}

extension String {
    fileprivate var trimmingSpaces: String {
        String(drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }
}
