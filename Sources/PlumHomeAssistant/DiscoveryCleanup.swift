/// Finding the retained discovery configs of pans that left the configuration, once per broker
/// connection: subscribe to this scale's configs, send a marker to ourselves, and when the marker
/// comes back every retained config the broker holds has arrived before it (the broker queues
/// them at subscription, in order).
struct DiscoveryCleanup: Sendable {
    enum Phase: Sendable {
        /// Waiting for the marker; the configs found so far.
        case collecting(marker: String, found: Set<String>)
        /// The marker came back: these retained configs exist.
        case synced(Set<String>)
        case done
    }

    var phase: Phase = .done

    mutating func begin(marker: String) { phase = .collecting(marker: marker, found: []) }

    /// A retained config on this scale's discovery filter; empty ones are already removed.
    mutating func found(_ topic: String, payloadEmpty: Bool) {
        guard case .collecting(let marker, var found) = phase, !payloadEmpty else { return }
        found.insert(topic)
        phase = .collecting(marker: marker, found: found)
    }

    /// A message on the sync topic; true when it was our marker.
    mutating func marker(_ text: String) -> Bool {
        guard case .collecting(let marker, let found) = phase, marker == text else { return false }
        phase = .synced(found)
        return true
    }

    /// The topics to clear given what must stay, once synced; nil before that or after.
    mutating func stale(keeping current: Set<String>) -> [String]? {
        guard case .synced(let found) = phase else { return nil }
        phase = .done
        return found.subtracting(current).sorted()
    }
}
