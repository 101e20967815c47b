/// What a sensor is doing, as `?DEVICES` and `plumscale status` report it.
package enum SensorState: Hashable, Sendable, CustomStringConvertible {
    /// Opening the hardware.
    case starting
    /// Publishing samples.
    case ok
    /// The chip does not signal conversions (missing, unpowered, wrong DOUT line); retrying.
    case notReady(reason: String)
    /// Opening or reading failed; retried with back-off until it works again.
    case fault(reason: String)
    /// A replayed trace has ended.
    case ended
    /// The sampler was stopped.
    case stopped

    /// The short name used on the wire: ok, starting, not-ready, fault, ended, stopped.
    package var name: String {
        switch self {
        case .starting: "starting"
        case .ok: "ok"
        case .notReady: "not-ready"
        case .fault: "fault"
        case .ended: "ended"
        case .stopped: "stopped"
        }
    }

    /// Why, for not-ready and fault.
    package var reason: String? {
        switch self {
        case .notReady(let reason), .fault(let reason): reason
        default: nil
        }
    }

    package var description: String { reason.map { "\(name): \($0)" } ?? name }
}
