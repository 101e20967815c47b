import PlumCore
import PlumDaemonConfig
import PlumHardware
import PlumProtocol
import PlumTestSupport
import PlumTransport
import Testing

@testable import PlumScaleDaemon
@testable import PlumStation

/// A sensor that stops delivering is weighed nowhere, in the station itself: the in-process
/// half of the edges review's most severe defect (the process half is in plumscaledTests).
@Suite("The station while a sensor delivers no samples")
struct StationOutageTests {
    static let pulled = SensorState.notReady(reason: "DOUT never went low within 300 ms: check the DOUT wire")

    @Test("S, SI, T, Z and TA answer I at once; a waiting S ends with S I; no tare or zero is taken")
    func balanceAnswersNotExecutable() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(152.3)
        #expect(await bench.respond(.stableWeight) == "S S      152.3 g\r\n")
        try await bench.feed(150, count: 9, alternate: 160)  // moving: the next S waits
        let late = try await bench.startWaiting(.stableWeight)
        await bench.station.handle(.state(Self.pulled), from: "pan")
        #expect(await late.value == "S I\r\n", "a wait in progress ends with the outage")
        for (command, answer) in [
            (MTSICSCommand.stableWeight, "S I"), (.immediateWeight, "S I"), (.tare, "T I"), (.zero, "Z I"),
            (.tareImmediately, "TI I"), (.zeroImmediately, "ZI I"), (.tarePreset(grams: 10), "TA I")
        ] {
            #expect(await bench.respond(command) == answer + "\r\n", "\(command) while the wire is out")
        }
        #expect(await bench.station.tare(of: "pan") == 0, "no tare was taken")
        #expect(await bench.station.entry("pan")?.engine.zeroOffset == 0, "no zero was taken")
    }

    @Test("after the outage nothing is stable until a fresh stable reading: one sample back is not enough")
    func recoveryNeedsAFreshStableReading() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(152.3)
        await bench.station.handle(.state(Self.pulled), from: "pan")
        try await bench.feed(152.3, count: 1)
        let first = try #require(await bench.station.entry("pan")?.latest)
        #expect(!first.isStable, "the first reading after the gap is not stable")
        try await bench.feed(152.3, count: 40)
        #expect(await bench.station.entry("pan")?.latest?.isStable == true, "stable again on fresh samples")
    }

    @Test("POLL: the pan's weight without grams, stale, with its state, reason and age; no total, not heaviest")
    func pollShowsNoOldWeight() async throws {
        let bench = try await BalanceBench()
        try await bench.feed(152.3)
        guard case .poll(let before) = await bench.station.poll() else { throw FixtureError("not a POLL") }
        #expect(before.weights.first?.heaviest == true && before.total != nil)
        await bench.station.handle(.state(Self.pulled), from: "pan")
        guard case .poll(let poll) = await bench.station.poll() else { throw FixtureError("not a POLL") }
        let pan = try #require(poll.weights.first)
        #expect(pan.grams == nil && pan.divisions == nil && !pan.stable && pan.stale, "\(pan)")
        #expect(pan.state == "not-ready" && pan.reason?.contains("DOUT") == true, "\(pan)")
        #expect((pan.age ?? -1) >= 0 && !pan.heaviest, "\(pan)")
        #expect(poll.total == nil && poll.totalReason == "sensor pan is \(Self.pulled)", "\(poll)")
        #expect(poll.active == 0)
        let replies = await bench.station.reply(to: .tare(sensor: "pan"))
        guard case .command(let tare) = replies.first else { throw FixtureError("not a command reply") }
        #expect(!tare.ok && tare.reason == "sensorUnavailable", "\(tare)")
        #expect(tare.message?.contains("delivers no samples") == true, "\(tare.message ?? "")")
    }

    @Test("the invalid reading the station gives an alert when its sensor stops restarts a hold in progress")
    func alertsHoldStill() {
        var alert = AlertState(
            rule: AlertRule(
                name: "low", sensor: "pan", condition: .below(grams: 50), hysteresis: 5,
                holdNanoseconds: 1_000_000_000, cue: false))
        #expect(alert.update(grams: 40, time: 0) == nil)
        #expect(alert.holdingSince == 0)
        // What the station does when the sensor stops: an invalid reading.
        #expect(alert.update(grams: nil, time: 0) == nil)
        #expect(alert.holdingSince == nil, "the hold starts over")
        #expect(alert.update(grams: 40, time: 5_000_000_000) == nil, "not raised on the first reading back")
    }
}
