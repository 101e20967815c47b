internal import PlumDrivers
public import PlumHardware

// The ALERT/RDY pin (SBAS444 §9.3.7, §9.3.8): conversion-ready pulses, the digital comparator
// and the pin seen through a GPIO line request with edge events. The registers, the bus and
// the conversions that drive it are in ADS1115Model.swift.
extension ADS1115Model {
    /// The conversion-ready pulse width in continuous mode (SBAS444 §9.3.8: about 8 µs).
    public static var readyPulseNanoseconds: UInt64 { 8_000 }
    /// Edge events kept until read, as the kernel's line-request buffer keeps 16 per line and
    /// drops the oldest when full.
    public static var edgeBufferSize: Int { 16 }

    var readyFunctionEnabled: Bool {
        hiThresh & 0x8000 != 0 && loThresh & 0x8000 == 0 && configBits & 0x3 != 0x3
    }

    var assertedHigh: Bool { configBits & 0x8 != 0 }

    /// The digital comparator after a conversion (SBAS444 §9.3.7, Figure 8): traditional mode
    /// asserts after COMP_QUE conversions above Hi_thresh and releases below Lo_thresh; window
    /// mode asserts after COMP_QUE conversions outside [Lo_thresh, Hi_thresh] and releases
    /// inside it; a latching comparator holds until Conversion is read.
    func compare(_ code: Int16, at time: MonotonicInstant) {
        let queue = configBits & 0x3
        guard queue != 0x3 else { return }
        let high = Int16(bitPattern: hiThresh)
        let low = Int16(bitPattern: loThresh)
        let window = configBits & 0x10 != 0
        let beyond = window ? (code > high || code < low) : code > high
        beyondCount = beyond ? beyondCount + 1 : 0
        let needed = [1, 2, 4][Int(queue)]
        if beyondCount >= needed {
            comparatorAsserted = true
        } else if configBits & 0x4 == 0 {
            let release = window ? !beyond : code < low
            if release { comparatorAsserted = false }
        }
        refreshPin(at: time)
    }

    /// Sets the pin's level for the current settings when no edge is due.
    func refreshPin(at time: MonotonicInstant) {
        guard readyFunctionEnabled else {
            if configBits & 0x3 == 0x3 {
                // Comparator disabled: the pin is high-impedance, held high by its pull-up.
                beyondCount = 0
                comparatorAsserted = false
                setPin(high: true, at: time)
            } else {
                setPin(high: comparatorAsserted ? assertedHigh : !assertedHigh, at: time)
            }
            return
        }
        let idle = inFlight == nil
        let mode = ADS1115Config(registerValue: configBits).mode
        setPin(high: (mode == .singleShot && idle) ? assertedHigh : !assertedHigh, at: time)
    }

    func setPin(high: Bool, at time: MonotonicInstant) {
        guard high != pinHigh else { return }
        pinHigh = high
        let kind: EdgeKind = high ? .rising : .falling
        let wanted: Bool
        switch alertEdgeDetection {
        case .none: wanted = false
        case .rising: wanted = kind == .rising
        case .falling: wanted = kind == .falling
        case .both: wanted = true
        }
        guard wanted else { return }
        if pendingEdges.count == Self.edgeBufferSize { pendingEdges.removeFirst() }
        pendingEdges.append(EdgeEvent(kind: kind, timestamp: time, offset: alertLineOffset))
    }

    /// The instant the pin may next change, if any.
    var nextPinChange: MonotonicInstant? {
        let end = conversionStuck ? nil : inFlight?.end
        switch (pulseEnd, end) {
        case (let pulse?, let end?): return min(pulse, end)
        case (let pulse?, nil): return pulse
        case (nil, let end?): return end
        case (nil, nil): return nil
        }
    }

    /// The ALERT/RDY pin as a GPIO input with edge events, for the driver to wait on.
    public var alertPin: AlertPin { AlertPin(model: self) }

    /// ALERT/RDY seen through a GPIO line request: level reads and kernel-style edge events.
    public struct AlertPin: GPIOEdgeLine {
        let model: ADS1115Model

        public func value() throws(HardwareError) -> Bool {
            model.advance(to: model.clock.now())
            return model.pinHigh
        }

        public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
            model.waitForEdges(timeout: timeout)
        }

        @discardableResult
        public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
            model.advance(to: model.clock.now())
            let count = model.pendingEdges.count
            events.append(contentsOf: model.pendingEdges)
            model.pendingEdges.removeAll(keepingCapacity: true)
            return count
        }
    }

    func waitForEdges(timeout: Duration) -> Bool {
        advance(to: clock.now())
        if !pendingEdges.isEmpty { return true }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds =
            seconds < 0
            ? 0 : UInt64(seconds) &* 1_000_000_000 &+ UInt64(max(0, attoseconds) / 1_000_000_000)
        let deadline = clock.now().advanced(byNanoseconds: nanoseconds)
        while let next = nextPinChange, next <= deadline {
            clock.sleep(until: next)
            advance(to: clock.now())
            if !pendingEdges.isEmpty { return true }
        }
        clock.sleep(until: deadline)
        advance(to: clock.now())
        return !pendingEdges.isEmpty
    }
}
