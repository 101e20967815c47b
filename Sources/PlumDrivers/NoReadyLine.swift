public import PlumHardware

/// The "no line" type for drivers built without a conversion-ready GPIO.
///
/// It has no values, so an `ADS1115<Bus, Time, NoReadyLine>` can only hold `nil` as its
/// ready line and the compiler removes every edge-waiting path.
public enum NoReadyLine: GPIOEdgeLine {
    public func value() throws(HardwareError) -> Bool { switch self {} }
    public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool { switch self {} }
    public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int { switch self {} }
}
