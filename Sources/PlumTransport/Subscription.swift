internal import NIOCore
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

    /// A new client: not watching.
    package init(watching: Bool = false, sensors: Set<String> = [], raw: Bool = false, binary: Bool = false) {
        self.watching = watching
        self.sensors = sensors
        self.raw = raw
        self.binary = binary
    }

    package init(_ options: WatchOptions) {
        self.init(watching: options.enable, sensors: Set(options.sensors), raw: options.raw, binary: options.binary)
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
        Report.watch(WatchOptions(enable: watching, sensors: sensors.sorted(), raw: raw, binary: binary)).line
    }
}
