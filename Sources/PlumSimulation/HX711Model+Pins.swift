public import PlumHardware

// The model's two pins as the driver sees them: PD_SCK, whose edges count pulses (and apply
// the injected line faults), and DOUT, read as a level or as kernel-style edge events. The
// chip's own state machine, which these bring up to the present first, is in HX711Model.swift.
extension HX711Model {
    func setClock(_ high: Bool) {
        spend()
        catchUp()
        let now = clock.now()
        if high {
            guard !sckHigh else { return }
            sckHigh = true
            sckRise = now
            guard powered else { return }
            counters.risingEdges &+= 1
            driverPulses += 1
            var count = 1
            for (fault, window) in faults where isActive(window) {
                switch fault {
                case .missedClockPulse(let pulse) where pulse == driverPulses:
                    count = 0
                    counters.faultsApplied &+= 1
                case .extraClockPulse(let pulse) where pulse == driverPulses:
                    count = 2
                    counters.faultsApplied &+= 1
                default: break
                }
            }
            for _ in 0..<count { countPulse(at: now) }
            for (fault, window) in faults where isActive(window) {
                if case .stretchedClock(let pulse, let by) = fault, pulse == driverPulses {
                    counters.faultsApplied &+= 1
                    // Preemption: time passes while PD_SCK is high.
                    clock.sleep(until: clock.now().advanced(byNanoseconds: by.nanoseconds))
                }
            }
        } else {
            guard sckHigh else { return }
            sckHigh = false
            if !powered { powerUp(at: now) }
        }
    }

    func readData() -> Bool {
        spend()
        catchUp()
        let level = lineLevel
        if sckHigh, !glitchUsed, !stuckHigh {
            for (fault, window) in faults where isActive(window) {
                if case .doutGlitch(let bit) = fault, bit == driverPulses {
                    glitchUsed = true
                    counters.faultsApplied &+= 1
                    return !level
                }
            }
        }
        if !sckHigh, !preemptionUsed {
            for (fault, window) in faults where isActive(window) {
                if case .preemptedLowPhase(let pulse, let by) = fault, pulse == driverPulses {
                    preemptionUsed = true
                    counters.faultsApplied &+= 1
                    // The sampler loses the CPU after this read returns, with PD_SCK low: no
                    // clock-high timing sees it. A conversion due meanwhile completes at the
                    // next operation's catch-up.
                    clock.sleep(until: clock.now().advanced(byNanoseconds: by.nanoseconds))
                }
            }
        }
        return level
    }

    func waitForEvents(timeout: Duration) -> Bool {
        spend()
        catchUp()
        let deadline = clock.now().advanced(byNanoseconds: timeout.nanoseconds)
        while events.isEmpty {
            guard let next = nextChange(), next <= deadline else {
                clock.sleep(until: deadline)
                catchUp()
                break
            }
            clock.sleep(until: next)
            catchUp()
        }
        return !events.isEmpty
    }

    func takeEvents(into buffer: inout [EdgeEvent]) -> Int {
        spend()
        catchUp()
        let count = events.count
        buffer.append(contentsOf: events)
        events.removeAll(keepingCapacity: true)
        return count
    }
}

extension HX711Model {
    /// The model's PD_SCK pin as a `GPIOOutputLine`.
    public struct ClockLine: GPIOOutputLine {
        let model: HX711Model

        public func setValue(_ active: Bool) throws(HardwareError) { model.setClock(active) }
    }

    /// The model's DOUT pin as a `GPIOEdgeLine`.
    public struct DataLine: GPIOEdgeLine {
        let model: HX711Model

        public func value() throws(HardwareError) -> Bool { model.readData() }

        public func waitForEdgeEvents(timeout: Duration) throws(HardwareError) -> Bool {
            model.waitForEvents(timeout: timeout)
        }

        @discardableResult
        public func readEdgeEvents(into events: inout [EdgeEvent]) throws(HardwareError) -> Int {
            model.takeEvents(into: &events)
        }
    }
}
