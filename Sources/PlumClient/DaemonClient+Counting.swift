import PlumProtocol

extension DaemonClient {
    /// Piece counting (`?COUNT`): the stable load on `sensor` is `pieces` pieces, and its
    /// `WEIGHT` reports then carry the count; nil `pieces` stops counting. A load still moving
    /// is refused with reason `notStable` (ask again, as ``tare(sensor:timeout:)`` is).
    /// `optimize`: the reference is updated as more pieces are added (protocol 1.8, docs/items.md).
    public func count(
        sensor: String, pieces: Int?, optimize: Bool? = nil, timeout: Duration = .seconds(5)
    ) throws(ClientError) -> CountReply {
        try request(.count(CountRequest(sensor: sensor, pieces: pieces, optimize: optimize)), timeout: timeout) {
            report in
            if case .count(let reply) = report, reply.sensor == sensor { reply } else { nil }
        }
    }
}
