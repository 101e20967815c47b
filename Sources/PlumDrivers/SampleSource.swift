public import PlumHardware

/// Anything that produces samples for one sensor: a driver on real hardware, a driver on a
/// chip model, or a replayed trace.
///
/// `next()` blocks the calling thread (the sensor's sampler thread) until the next trusted
/// sample or an error. It is called from one thread at a time.
public protocol SampleSource: AnyObject {
    /// What this source is, for messages and the daemon's device list.
    var info: SourceInfo { get }
    /// Running totals since the source was opened.
    var statistics: DriverStatistics { get }
    /// Blocks until the next trusted sample.
    /// - Throws: ``SensorError``: `.notReady` when the chip never signals a conversion
    ///   (missing or unpowered), `.hardware` when an operation failed, `.endOfData` when a
    ///   replayed trace is exhausted.
    func next() throws(SensorError) -> Sample
}

/// A description of a sample source.
public struct SourceInfo: Hashable, Sendable {
    /// The sensor's configured name, such as "left".
    public var name: String
    /// The driver kind, such as "hx711" or "ads1115".
    public var kind: String
    /// The wiring in words, such as "gpiochip0 DOUT=GPIO5 SCK=GPIO6, channel A gain 128".
    public var wiring: String
    public var signal: SignalKind
    /// The conversion rate the chip is set to, in samples per second.
    public var nominalRate: Double
    /// Settings changed from their safe defaults, said in every summary (for example a raised
    /// clock-high limit for an emulated bus).
    public var notices: [String]

    public init(
        name: String, kind: String, wiring: String, signal: SignalKind, nominalRate: Double, notices: [String] = []
    ) {
        self.name = name
        self.kind = kind
        self.wiring = wiring
        self.signal = signal
        self.nominalRate = nominalRate
        self.notices = notices
    }
}

/// Running totals a driver keeps.
public struct DriverStatistics: Hashable, Sendable {
    /// Samples published.
    public var published: UInt64 = 0
    /// Conversions discarded, by reason.
    public var discarded = DiscardCounts()
    /// Waits for a conversion that timed out.
    public var notReady: UInt64 = 0
    /// Samples flagged over or under range.
    public var saturated: UInt64 = 0
    /// GPIO or bus operations performed (line sets, gets, edge waits and reads; SMBus transfers).
    public var hardwareOperations: UInt64 = 0

    public init() {}
}

/// Why a source could not produce a sample.
public enum SensorError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The chip did not signal a conversion within the timeout: missing, unpowered, or DOUT
    /// wired to the wrong pin.
    case notReady(sensor: String, waited: Duration, hint: String)
    /// A hardware operation failed.
    case hardware(sensor: String, HardwareError)
    /// A replayed trace has no more samples.
    case endOfData(sensor: String)

    public var description: String {
        switch self {
        case .notReady(let sensor, let waited, let hint):
            return "\(sensor): not ready: no conversion within \(waited.formattedMilliseconds); \(hint)"
        case .hardware(let sensor, let error):
            return "\(sensor): \(error)"
        case .endOfData(let sensor):
            return "\(sensor): end of recorded trace"
        }
    }
}

extension Duration {
    /// "250 ms", for messages.
    public var formattedMilliseconds: String {
        let (seconds, attoseconds) = components
        let ms = Double(seconds) * 1000 + Double(attoseconds) / 1e15
        return ms == ms.rounded() ? "\(Int(ms)) ms" : "\(ms) ms"
    }
}
