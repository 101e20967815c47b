package import PlumProtocol

/// When a pan's readings become MQTT messages: pure, so every rule is tested without a broker.
///
/// - The **state** (retained) is published when a stable weight differs from the last published
///   one by at least `delta`, when a flag changes (stable, overload, underload, calibrated), and
///   every `heartbeat` seconds even when nothing changed, so a consumer can tell the bridge lives.
/// - The **live** topic gets the present reading at most `liveRate` times a second.
///
/// A state message is one reading: the last stable one whose weight was published (grams,
/// percent, tare, flow and time together), with the flags (stable, overload, underload,
/// calibrated) of now, so `stable: false` says the pan has moved since that reading.
package struct PublishingPolicy: Hashable, Sendable {
    package struct Settings: Hashable, Sendable {
        /// The division of `[scale]`, for reports of a daemon too old to send each pan's own.
        package var division: DivisionRounding
        /// Grams; nil: one division.
        package var delta: Double?
        package var heartbeatSeconds: Double
        /// Messages per second on the live topic; 0: none.
        package var liveRate: Double

        package init(
            division: DivisionRounding, delta: Double? = nil, heartbeatSeconds: Double = 300, liveRate: Double = 2
        ) {
            self.division = division
            self.delta = delta
            self.heartbeatSeconds = heartbeatSeconds
            self.liveRate = liveRate
        }

        package var effectiveDelta: Double { delta ?? division.grams }

        /// The division a pan's report is rounded to: its own (a sensor profile or the sensor's
        /// keys may set one other than `[scale]`'s, such as 1 g for an FSR), else `[scale]`'s.
        func division(of report: WeightReport) -> DivisionRounding {
            report.division.flatMap { $0 > 0 && $0.isFinite ? DivisionRounding(grams: $0) : nil } ?? division
        }
    }

    /// What to publish for one reading.
    package struct Decision: Hashable, Sendable {
        package var state: PanState?
        package var live: PanState?
    }

    package let settings: Settings
    /// The state last published, and when (the caller's clock, seconds).
    package private(set) var lastState: PanState?
    private var lastStateAt: Double?
    private var lastLiveAt: Double?
    /// The newest state, published or not, for the heartbeat.
    private var current: PanState?
    /// The stable reading whose weight the state last published: the state's measurement.
    private var measured: PanState?

    package init(_ settings: Settings) { self.settings = settings }

    /// The weight the daemon's display shows (``WeightReport/shownGrams``), so Home Assistant
    /// shows the same digits as every other client, a half-way weight included.
    package static func shownGrams(_ report: WeightReport, division: DivisionRounding) -> Double? {
        report.shownGrams.map(division.round)
    }

    /// Decides what `report` publishes; `now` is a monotonic time in seconds.
    package mutating func decide(_ report: WeightReport, now: Double) -> Decision {
        let division = settings.division(of: report)
        let present = PanState(
            grams: Self.shownGrams(report, division: division), stable: report.stable, overload: report.overload,
            underload: report.underload, percent: report.percent.map { ($0 * 10).rounded() / 10 + 0.0 },
            tare: report.tare,
            calibrated: report.calibrated, time: report.time, flow: report.flow)
        var decision = Decision()
        if settings.liveRate > 0, lastLiveAt.map({ now - $0 >= 1 / settings.liveRate - 1e-9 }) ?? true {
            decision.live = present
            lastLiveAt = now
        }
        let newWeight =
            present.stable && present.grams != nil && present.grams != lastState?.grams
            && (lastState?.grams).map { abs(present.grams! - $0) >= (settings.delta ?? division.grams) - 1e-9 } ?? true
        if newWeight { measured = present }
        // The state keeps the last published stable reading until a new one differs enough: its
        // grams, percent, tare, flow and time all come from that one reading, so they agree (a
        // lifted plum once showed 114.8 g beside -3.2 %). The flags say what the pan is now.
        var state = measured ?? present
        if measured == nil {
            state.grams = nil
            state.percent = nil
            state.flow = nil
        }
        state.stable = present.stable
        state.overload = present.overload
        state.underload = present.underload
        state.calibrated = present.calibrated
        current = state
        let flagsChanged =
            lastState.map {
                $0.stable != state.stable || $0.overload != state.overload || $0.underload != state.underload
                    || $0.calibrated != state.calibrated
            } ?? true
        if newWeight || flagsChanged {
            publish(state, now: now, into: &decision)
        }
        return decision
    }

    /// The state to publish again when `heartbeat` seconds passed without one; nil otherwise.
    package mutating func heartbeat(now: Double) -> PanState? {
        guard let current, let lastStateAt, now - lastStateAt >= settings.heartbeatSeconds else { return nil }
        var decision = Decision()
        publish(current, now: now, into: &decision)
        return decision.state
    }

    private mutating func publish(_ state: PanState, now: Double, into decision: inout Decision) {
        decision.state = state
        lastState = state
        lastStateAt = now
    }
}
