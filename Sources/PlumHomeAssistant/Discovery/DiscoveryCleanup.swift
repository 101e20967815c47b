/// Finding what discovery the broker retains for this scale, once per broker connection:
/// subscribe to the scale's per-entity configs (earlier releases) and to its device config, send
/// a marker to ourselves, and when the marker comes back every retained config the broker holds
/// has arrived before it (the broker queues them at subscription, in order).
///
/// What it finds decides the first device config of the connection: per-entity configs are
/// migrated (their entity is still there) or emptied (a pan or an alert that left), and the
/// components of a retained device config that are no longer there are removed.
struct DiscoveryCleanup: Sendable {
    /// The retained discovery of this scale on the broker.
    struct Found: Hashable, Sendable {
        /// Per-entity config topics with a payload; empty ones are already removed.
        var legacy: Set<String> = []
        /// The retained device config's components: platform by object id.
        var components: [String: String] = [:]
    }

    enum Phase: Sendable {
        /// No connection, or subscribed and waiting for the marker with what was found so far.
        case idle
        case collecting(marker: String, found: Found)
        /// The marker came back: what is left of the found discovery to act on.
        case synced(Found)
    }

    var phase: Phase = .idle

    mutating func begin(marker: String) { phase = .collecting(marker: marker, found: Found()) }

    /// A retained per-entity config on this scale's discovery filter.
    mutating func found(legacy topic: String, payloadEmpty: Bool) {
        guard case .collecting(let marker, var found) = phase, !payloadEmpty else { return }
        found.legacy.insert(topic)
        phase = .collecting(marker: marker, found: found)
    }

    /// The retained device config, by its components' platforms.
    mutating func found(components: [String: String]) {
        guard case .collecting(let marker, var found) = phase else { return }
        found.components = components
        phase = .collecting(marker: marker, found: found)
    }

    /// A message on the sync topic; true when it was our marker.
    mutating func marker(_ text: String) -> Bool {
        guard case .collecting(let marker, let found) = phase, marker == text else { return false }
        phase = .synced(found)
        return true
    }

    /// Whether everything retained has arrived on this connection.
    var isSynced: Bool {
        if case .synced = phase { return true }
        return false
    }

    /// Takes the retained per-entity topics `include` accepts, sorted; the rest wait for a later call.
    mutating func takeLegacy(where include: (String) -> Bool) -> [String] {
        guard case .synced(var found) = phase else { return [] }
        let taken = found.legacy.filter(include)
        found.legacy.subtract(taken)
        phase = .synced(found)
        return taken.sorted()
    }

    /// Takes the retained device config's components, once.
    mutating func takeComponents() -> [String: String] {
        guard case .synced(var found) = phase else { return [:] }
        let taken = found.components
        found.components = [:]
        phase = .synced(found)
        return taken
    }
}
