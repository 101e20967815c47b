/// How a scale is named on the broker and in Home Assistant, from `[mqtt] scale_id`: one place,
/// used by the bridge (PlumHomeAssistant's `ScaleIdentity` and its discovery) and by
/// `plumscale setup`, which tells the user the device name to look for without linking the
/// bridge. It lives here, not in PlumSettings: through PlumSettings the bridge's module would see
/// TOMLKit's Foundation, its string calls would bind to Foundation's overloads, and the release
/// build of plumscale-mqtt, which links FoundationEssentials only (packaging/build-deb), would
/// not link.
package enum HomeAssistantDeviceName {
    /// `scale_id` when set, else the first 12 hex digits of /etc/machine-id (which systemd keeps
    /// for the life of the installation, so the device stays the same across restarts); nil
    /// when neither gives an id.
    package static func scaleID(configured: String?, machineID: String?) -> String? {
        if let configured, !configured.isEmpty { return configured }
        let hex = (machineID ?? "").lowercased().filter { $0.isHexDigit }
        return hex.count >= 12 ? String(hex.prefix(12)) : nil
    }

    /// The device's name in Home Assistant's device registry: "PlumScale kitchen".
    package static func deviceName(scaleID: String) -> String { "PlumScale \(scaleID)" }

    /// Home Assistant's node id and the device's identifier: `plumscale_<scale id>`.
    package static func nodeID(scaleID: String) -> String { "plumscale_\(scaleID)" }
}
