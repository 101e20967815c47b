internal import PlumHardware

/// One kernel IIO device, and which PlumScale `kind` reads it.
package struct IIOFinding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The entry, such as `iio:device0`.
    package var id: String
    /// The driver's device name, such as `hx711` or `ads1115`.
    package var name: String

    package init(id: String, name: String) {
        self.id = id
        self.name = name
    }

    /// Every IIO device under the roots' IIO directory; none when the directory is missing.
    package static func all(_ roots: ProbeRoots) -> [IIOFinding] {
        ((try? IIODevice.all(root: roots.iioDirectory)) ?? []).map { IIOFinding(id: $0.id, name: $0.name) }
    }

    /// "iio:device0 [hx711]: the kernel's hx711 driver; kind = \"iio\"".
    package var description: String {
        let driver =
            switch name {
            case "hx711": "the kernel's hx711 driver owns an HX711; read it with kind = \"iio\""
            case "ads1015", "ads1115", "tla2024":
                "the kernel's ti-ads1015 driver owns an ADS1x15; read it with kind = \"iio\""
            default: "not a sensor PlumScale knows"
            }
        return "\(id) [\(name)]: \(driver)"
    }
}
