internal import PlumProtocol

/// Who this scale is on the broker: the id in its topics and in Home Assistant's unique ids.
///
/// It must stay the same across restarts, or Home Assistant would see a new device each time:
/// `scale_id` from `[mqtt]` (or `--scale-id`) when set, else the first 12 hex digits of
/// /etc/machine-id, which systemd keeps for the life of the installation.
package struct ScaleIdentity: Hashable, Sendable {
    /// Letters, digits, `_` and `-`: one topic level, safe in a unique id.
    package let scaleID: String

    /// - Parameters:
    ///   - configured: `scale_id`, already checked by the configuration.
    ///   - machineID: the text of /etc/machine-id, or nil when it could not be read.
    /// - Throws: ``BridgeError`` when neither gives an id.
    package init(configured: String?, machineID: String?) throws(BridgeError) {
        guard let id = HomeAssistantDeviceName.scaleID(configured: configured, machineID: machineID) else {
            throw BridgeError(
                "no scale id: /etc/machine-id is missing or empty; set scale_id in [mqtt] or pass --scale-id, such as "
                    + "\"kitchen\""
            )
        }
        scaleID = id
    }

    /// Home Assistant's node id and the device's identifier: `plumscale_<scale id>`.
    package var nodeID: String { HomeAssistantDeviceName.nodeID(scaleID: scaleID) }

    /// A pan's name as one topic level and unique-id part: anything but letters, digits, `_` and
    /// `-` becomes `_`.
    package static func level(_ pan: String) -> String {
        String(pan.map { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "_" || $0 == "-") ? $0 : "_" })
    }
}
