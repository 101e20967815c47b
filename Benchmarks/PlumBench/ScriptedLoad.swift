package import PlumHardware
internal import PlumSimulation

/// A load that follows a script of steps, ringing placements, ramps and knocks: the
/// benchmark's workloads, deterministic and described in a few lines.
///
/// `grams(at:)` is what the pan feels (the chip model converts it); `truth(at:)` is the weight
/// a trustworthy display should settle to: the steps and ramps, without the ringing and the
/// knocks.
package struct ScriptedLoad: LoadProfile, Sendable {
    package enum Event: Hashable, Sendable {
        /// The load becomes `grams` at `at` seconds, at once.
        case step(at: Double, to: Double)
        /// The load becomes `grams` at `at` seconds and the pan rings: a damped oscillation of
        /// the step, `depth · e^(−t/decay) · cos 2πft`.
        case ringingStep(at: Double, to: Double, frequency: Double, decay: Double, depth: Double)
        /// The load moves linearly to `grams` over `duration` seconds from `at`.
        case ramp(at: Double, to: Double, duration: Double)
        /// A brief extra force (a finger, a knock) of `grams` for `duration` seconds.
        case knock(at: Double, grams: Double, duration: Double)

        var start: Double {
            switch self {
            case .step(let at, _), .ringingStep(let at, _, _, _, _), .ramp(let at, _, _), .knock(let at, _, _): at
            }
        }

        /// The same event `seconds` later.
        func delayed(by seconds: Double) -> Event {
            switch self {
            case .step(let at, let to): .step(at: at + seconds, to: to)
            case .ringingStep(let at, let to, let frequency, let decay, let depth):
                .ringingStep(at: at + seconds, to: to, frequency: frequency, decay: decay, depth: depth)
            case .ramp(let at, let to, let duration): .ramp(at: at + seconds, to: to, duration: duration)
            case .knock(let at, let grams, let duration): .knock(at: at + seconds, grams: grams, duration: duration)
            }
        }
    }

    package let events: [Event]
    /// Instant zero of the script on the monotonic clock.
    package let origin: MonotonicInstant

    package init(_ events: [Event], origin: MonotonicInstant) {
        self.events = events.sorted { $0.start < $1.start }
        self.origin = origin
    }

    /// Seconds since the script's start.
    func seconds(_ time: MonotonicInstant) -> Double {
        time < origin ? -Double(origin.nanoseconds(since: time)) / 1e9 : Double(time.nanoseconds(since: origin)) / 1e9
    }

    package func grams(at time: MonotonicInstant) -> Double {
        let t = seconds(time)
        var level = 0.0
        var ringing = 0.0
        var knocks = 0.0
        for event in events where event.start <= t {
            switch event {
            case .step(_, let to):
                level = to
                ringing = 0
            case .ringingStep(let at, let to, let frequency, let decay, let depth):
                let step = to - level
                level = to
                let elapsed = t - at
                ringing = -step * depth * _exp(-elapsed / decay) * _cos(2 * Double.pi * frequency * elapsed)
            case .ramp(let at, let to, let duration):
                let fraction = duration > 0 ? min(1, (t - at) / duration) : 1
                level += (to - level) * fraction
                ringing = 0
            case .knock(let at, let grams, let duration):
                if t < at + duration { knocks += grams }
            }
        }
        return level + ringing + knocks
    }

    /// The weight a display should show at `time`: steps and ramps only.
    package func truth(at time: MonotonicInstant) -> Double {
        let t = seconds(time)
        var level = 0.0
        for event in events where event.start <= t {
            switch event {
            case .step(_, let to), .ringingStep(_, let to, _, _, _): level = to
            case .ramp(let at, let to, let duration):
                let fraction = duration > 0 ? min(1, (t - at) / duration) : 1
                level += (to - level) * fraction
            case .knock: break
            }
        }
        return level
    }

    /// The instants (seconds) after which the display is expected to settle: each step, the
    /// end of each ramp, and each knock.
    package var changes: [Double] {
        events.map { event in
            switch event {
            case .ramp(let at, _, let duration): at + duration
            default: event.start
            }
        }
    }
}

#if canImport(Glibc)
    import Glibc
    @inline(__always) private func _exp(_ x: Double) -> Double { Glibc.exp(x) }
    @inline(__always) private func _cos(_ x: Double) -> Double { Glibc.cos(x) }
#endif
