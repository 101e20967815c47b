import Logging
import PlumCore
import PlumHardware
import PlumSensors
import PlumStation
import PlumTestSupport
import Synchronization
import Testing

/// An output line that records every level it is driven to, with when.
final class RecordingLine: GPIOOutputLine, Sendable {
    let changes = Mutex<[(active: Bool, at: ContinuousClock.Instant)]>([])

    func setValue(_ active: Bool) throws(HardwareError) {
        changes.withLock { $0.append((active, .now)) }
    }

    var levels: [Bool] { changes.withLock { $0.map(\.active) } }
}

/// A line that fails as a disconnected chip would.
struct FailingLine: GPIOOutputLine, Sendable {
    func setValue(_ active: Bool) throws(HardwareError) {
        throw HardwareError(.systemCall, operation: "setting", subject: "gpiochip0 line 18", errno: .noSuchDevice)
    }
}

@Suite("The cue output: one pulse per cue on a GPIO line")
struct CuePulserTests {
    @Test("a cue drives the line active for the pulse length, then inactive")
    func onePulse() async throws {
        let line = RecordingLine()
        let pulser = CuePulser(line: line, pulse: .milliseconds(40), logger: quietLogger)
        let running = Task { await pulser.run() }
        pulser.cue(.maxForce, sensor: "left")
        try await waitFor("one pulse", describe: { "\(pulser.counts)" }) { pulser.counts.pulses == 1 }
        pulser.finish()
        await running.value
        let changes = line.changes.withLock { $0 }
        #expect(changes.map(\.active).prefix(2) == [true, false], "the line went \(changes.map(\.active))")
        if changes.count >= 2 {
            #expect(changes[1].at - changes[0].at >= .milliseconds(40), "the line stays active for the whole pulse")
        }
        #expect(changes.last?.active == false, "left inactive at the end")
    }

    @Test("cues that come while a pulse is on are coalesced into it; a later cue pulses again")
    func coalescing() async throws {
        let line = RecordingLine()
        let pulser = CuePulser(line: line, pulse: .milliseconds(200), logger: quietLogger)
        let running = Task { await pulser.run() }
        pulser.cue(.maxForce, sensor: "left")
        try await waitFor("the line to go active", describe: { "\(line.levels)" }) { line.levels.first == true }
        for _ in 0..<5 { pulser.cue(.maxForce, sensor: "left") }
        try await waitFor("five cues coalesced into the first pulse", describe: { "\(pulser.counts)" }) {
            pulser.counts.pulses == 1 && pulser.counts.coalesced == 5
        }
        pulser.cue(.stableWeight(grams: 120), sensor: "right")
        try await waitFor("a second pulse", describe: { "\(pulser.counts)" }) { pulser.counts.pulses == 2 }
        pulser.finish()
        await running.value
        #expect(line.levels.prefix(4) == [true, false, true, false], "the line went \(line.levels)")
    }

    @Test("a line that fails is counted and logged, and the pulser keeps going")
    func failingLine() async throws {
        let pulser = CuePulser(line: FailingLine(), pulse: .milliseconds(5), logger: quietLogger)
        let running = Task { await pulser.run() }
        pulser.cue(.maxForce, sensor: "left")
        try await waitFor("a first failure counted", describe: { "\(pulser.counts)" }) { pulser.counts.failures == 1 }
        pulser.cue(.maxForce, sensor: "left")
        try await waitFor("a second failure counted", describe: { "\(pulser.counts)" }) { pulser.counts.failures == 2 }
        #expect(pulser.counts.pulses == 0, "a failing line pulsed: \(pulser.counts)")
        pulser.finish()
        await running.value
    }
}
