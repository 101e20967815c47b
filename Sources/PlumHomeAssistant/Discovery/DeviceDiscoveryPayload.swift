/// One device-based discovery config (Home Assistant 2024.12 and later), retained on
/// `<discovery prefix>/device/<node id>/config`: the device and the origin once, the options
/// every entity shares once, and each entity as a component under its object id.
///
/// Home Assistant's documentation (integrations/mqtt, "Device discovery payload") requires `dev`,
/// `o` and `cmps` with a platform `p` in each component, and lets a component inherit the shared
/// options (`availability`, `availability_mode`, `state_topic`, `command_topic`, `qos`) unless it
/// sets them itself. The scale's entities have no state topic in common (each pan has its own,
/// the heaviest pan and the alerts theirs), so only availability and QoS are shared.
package struct DeviceDiscoveryPayload: Hashable, Sendable, Encodable {
    package var device: DiscoveryPayload.Device
    package var origin: DiscoveryPayload.Origin
    /// By object id, the key that makes each entity's discovery id `<node id> <object id>`.
    package var components: [String: Component]
    /// The bridge and its daemon link; a pan's components replace it with a list that adds the
    /// pan's sensor.
    package var availability: [DiscoveryPayload.Availability]
    package var availabilityMode: String
    package var qos: Int

    /// One entity of the device, or one being removed.
    package enum Component: Hashable, Sendable, Encodable {
        case entity(DiscoveryPayload)
        /// Only the platform: Home Assistant removes the entity and its registry entry. The next
        /// config leaves the component out, as the documentation asks.
        case removed(platform: String)

        package func encode(to encoder: any Encoder) throws {
            switch self {
            case .entity(let payload):
                try payload.encode(to: encoder)
            case .removed(let platform):
                var container = encoder.container(keyedBy: RemovedKeys.self)
                try container.encode(platform, forKey: .platform)
            }
        }

        private enum RemovedKeys: String, CodingKey { case platform = "p" }
    }

    private enum CodingKeys: String, CodingKey {
        case device = "dev"
        case origin = "o"
        case components = "cmps"
        case availability
        case availabilityMode = "availability_mode"
        case qos
    }
}
