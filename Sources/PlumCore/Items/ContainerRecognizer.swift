/// Recognises a saved container put on an empty pan, so the daemon tares it by itself
/// (`[scale] recognize_containers`, off by default).
///
/// The pan must first be seen empty: a stable gross load within one division of zero. The next
/// stable load that is not the pan's tare already is judged once: when exactly one named tare
/// lies within 2 d of the gross load, that container was put on, and its saved weight is to be
/// set as the preset tare (as choosing it by name would), so the display shows what goes into
/// it. Anything else put on the empty pan (fruit, a container not saved, a load within 2 d of
/// two saved ones, which could be either) is weighed as it is; a load added to a container
/// already on the pan is never judged, since the pan was not empty before it.
package struct ContainerRecognizer: Hashable, Sendable {
    /// Whether the pan was seen empty since the last stable load was judged.
    package private(set) var armed = false

    package init() {}

    /// Takes one reading; the named tare to set (name and saved grams) when this reading is the
    /// placement of a saved container, else nil.
    /// - Parameter tares: the library of named tares, grams by name.
    package mutating func observe(_ reading: Reading, tares: [String: Double]) -> (name: String, grams: Double)? {
        guard reading.isStable, reading.isCalibrated, !reading.isOverload, !reading.isUnderload,
            let gross = reading.gross
        else { return nil }
        let d = reading.division.grams
        if abs(gross) <= d {
            armed = true
            return nil
        }
        guard armed else { return nil }
        armed = false
        // Already tared with this load (the tare was set before it settled): nothing to do.
        guard abs(gross - reading.tare) > 2 * d else { return nil }
        let near = tares.filter { abs($0.value - gross) <= 2 * d }
        guard near.count == 1, let only = near.first else { return nil }
        return (only.key, only.value)
    }
}
