public import PlumHardware

/// A voltage on one analog input pin over time, in volts against the chip's ground.
///
/// Chip models sample it during each conversion. Stateful signals (an FSR with hysteresis)
/// are classes and expect non-decreasing times.
public protocol AnalogSignal {
    func volts(at time: MonotonicInstant) -> Double
}

/// A voltage that never changes: a reference, a battery, a grounded input.
public struct ConstantVolts: AnalogSignal, Hashable, Sendable {
    public var volts: Double
    public init(_ volts: Double) { self.volts = volts }
    public func volts(at time: MonotonicInstant) -> Double { volts }
}

/// A voltage given by a function of time, for ramps and steps in tests.
public struct VoltageFunction: AnalogSignal {
    private let function: (MonotonicInstant) -> Double
    public init(_ function: @escaping (MonotonicInstant) -> Double) { self.function = function }
    public func volts(at time: MonotonicInstant) -> Double { function(time) }
}
