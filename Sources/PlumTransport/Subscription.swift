package import NIOCore
package import PlumProtocol

/// What one client asked to receive with `?WATCH`.
package struct Subscription: Hashable, Sendable {
    /// Streaming is on.
    package var watching: Bool
    /// The sensors to stream; empty means all.
    package var sensors: Set<String>
    /// `RAW` reports too.
    package var raw: Bool
    /// Binary frames instead of JSON `WEIGHT` reports.
    package var binary: Bool
    /// A sensor's JSON `WEIGHT` only when what it shows changes, or ``changesHeartbeat`` after
    /// the last one sent (protocol 1.9).
    package var changes: Bool

    /// A changes-only watcher gets a sensor's report at least this often, so its silence still
    /// means the daemon is stuck.
    package static let changesHeartbeat = TimeAmount.seconds(1)

    /// A new client: not watching.
    package init(
        watching: Bool = false, sensors: Set<String> = [], raw: Bool = false, binary: Bool = false,
        changes: Bool = false
    ) {
        self.watching = watching
        self.sensors = sensors
        self.raw = raw
        self.binary = binary
        self.changes = changes
    }

    package init(_ options: WatchOptions) {
        self.init(
            watching: options.enable, sensors: Set(options.sensors), raw: options.raw, binary: options.binary,
            changes: options.changes)
    }

    /// The bytes of `publication` this client should receive, or nil.
    func select(_ publication: Publication) -> ByteBuffer? {
        guard watching, sensors.isEmpty || sensors.contains(publication.sensor) else { return nil }
        switch publication.kind {
        case .weight: return binary ? publication.frame : publication.line
        case .raw: return raw && !binary ? publication.line : nil
        case .event: return binary ? nil : publication.line
        }
    }

    /// The `WATCH` line that acknowledges the subscription.
    var report: String {
        Report.watch(
            WatchOptions(enable: watching, sensors: sensors.sorted(), raw: raw, binary: binary, changes: changes)
        ).line
    }
}
