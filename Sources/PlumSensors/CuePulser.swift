import Logging
package import PlumCore
import PlumHardware
import Synchronization

/// Where the station sends the engine's cues besides the `CUE` reports.
package protocol CueSink: Sendable {
    /// Called on the station's actor: must return at once.
    func cue(_ cue: Cue, sensor: String)
}

/// Sounds an active buzzer or a haptic motor driver on a GPIO line: one pulse of a fixed
/// length per cue, like the original app's vibration at maximum force.
///
/// Cues arrive on the station's actor and only enqueue; a task of its own drives the line, so
/// neither the station nor a sampler ever waits for a pulse. A cue that comes while a pulse is
/// on is coalesced into it (counted, not queued): a load that bounces at full scale buzzes once,
/// not in a burst. Generic over the line protocol, so the tests drive it against a recording
/// line and a Pi against libgpiod.
package final class CuePulser<Line: GPIOOutputLine & Sendable>: CueSink {
    private let line: Line
    private let pulse: Duration
    private let logger: Logger
    private let requests: AsyncStream<ContinuousClock.Instant>
    private let continuation: AsyncStream<ContinuousClock.Instant>.Continuation
    private let statistics = Mutex<Statistics>(Statistics())

    /// What the pulser has done, for tests and logs.
    package struct Statistics: Hashable, Sendable {
        package var pulses = 0
        package var coalesced = 0
        package var failures = 0
    }

    /// - Parameters:
    ///   - line: the output line, requested inactive (with active-low already applied).
    ///   - pulse: how long one cue sounds.
    package init(line: Line, pulse: Duration, logger: Logger) {
        self.line = line
        self.pulse = pulse
        self.logger = logger
        (requests, continuation) = AsyncStream.makeStream(
            of: ContinuousClock.Instant.self, bufferingPolicy: .bufferingNewest(8))
    }

    package func cue(_ cue: Cue, sensor: String) {
        continuation.yield(.now)
    }

    package var counts: Statistics { statistics.withLock { $0 } }

    /// Drives the line until ``finish()``; the line is left inactive.
    package func run() async {
        var quietSince: ContinuousClock.Instant?
        for await requested in requests {
            if let quietSince, requested < quietSince {
                statistics.withLock { $0.coalesced += 1 }
                continue
            }
            let pulsed: Bool
            do {
                try line.setValue(true)
                try? await Task.sleep(for: pulse)
                try line.setValue(false)
                pulsed = true
            } catch {
                logger.error("cue output: \(error); the cue is reported to clients only")
                try? line.setValue(false)
                pulsed = false
            }
            // The step ends before it is counted, so a cue made once the count shows it is a new
            // pulse, not one coalesced into the pulse just counted.
            quietSince = .now
            statistics.withLock { counts in
                if pulsed { counts.pulses += 1 } else { counts.failures += 1 }
            }
        }
        try? line.setValue(false)
    }

    /// Ends ``run()`` after the pulse in progress, if any.
    package func finish() {
        continuation.finish()
    }
}

extension CuePulser where Line == GPIOOutputRequest {
    /// Requests the configured line as an output, inactive, for the life of the daemon.
    /// - Throws: ``HardwareError`` naming the chip or line and what to check.
    package convenience init(chip: GPIOChipSpec, line: GPIOLineSpec, activeLow: Bool, pulse: Duration, logger: Logger)
        throws(HardwareError)
    {
        let opened = try GPIOChip(chip)
        let request = try opened.requestOutput(
            line, consumer: "plumscaled cue", initialValue: false, activeLow: activeLow)
        self.init(line: request, pulse: pulse, logger: logger)
    }
}
