import Foundation
import PlumHomeAssistant
import PlumProtocol
import Testing

@Suite("publishing policy")
struct PublishingPolicyTests {
    static let tenth = PublishingPolicy.Settings(
        division: DivisionRounding(grams: 0.1), heartbeatSeconds: 60, liveRate: 2)

    @Test("with the default delta of one division, a stable weight one division away is published, less is not")
    func deltaOfOneDivision() {
        var policy = PublishingPolicy(Self.tenth)
        #expect(
            policy.decide(weightReport("left", grams: 152.23, stable: true), now: 0).state?.grams == 152.2,
            "the first stable weight is published, rounded to the division")
        #expect(
            policy.decide(weightReport("left", grams: 152.24, stable: true), now: 1).state == nil,
            "152.24 g still shows 152.2 g: nothing new")
        #expect(
            policy.decide(weightReport("left", grams: 152.26, stable: true), now: 2).state?.grams == 152.3,
            "152.3 g is one division (0.1 g) from 152.2 g: published")
    }

    @Test("a pan with a division of its own (an FSR profile's 1 g) is rounded and compared at it, not at [scale]'s")
    func divisionOfThePan() {
        var policy = PublishingPolicy(Self.tenth)
        #expect(
            policy.decide(weightReport("fsr", grams: 152.23, stable: true, division: 1), now: 0).state?.grams == 152,
            "rounded to the pan's own 1 g")
        #expect(
            policy.decide(weightReport("fsr", grams: 152.6, stable: true, division: 1), now: 1).state?.grams == 153,
            "one of the pan's divisions away: published")
        #expect(
            policy.decide(weightReport("fsr", grams: 153.3, stable: true, division: 1), now: 2).state == nil,
            "still 153 g at the pan's division, though 0.7 g is many of [scale]'s 0.1 g")
    }

    @Test("delta compares rounded weights: a change below delta is held back, at delta it is published")
    func deltaBoundary() {
        var policy = PublishingPolicy(
            .init(division: DivisionRounding(grams: 1), delta: 5, heartbeatSeconds: 60, liveRate: 0))
        #expect(policy.decide(weightReport("left", grams: 100, stable: true), now: 0).state?.grams == 100)
        #expect(policy.decide(weightReport("left", grams: 104, stable: true), now: 1).state == nil, "4 g < delta 5 g")
        #expect(policy.decide(weightReport("left", grams: 96, stable: true), now: 2).state == nil, "-4 g < delta 5 g")
        #expect(
            policy.decide(weightReport("left", grams: 105, stable: true), now: 3).state?.grams == 105, "5 g = delta")
        #expect(
            policy.decide(weightReport("left", grams: 100, stable: true), now: 4).state?.grams == 100, "-5 g = delta")
    }

    @Test("while the pan moves the state keeps the last stable weight, and the stable flag changes are published")
    func motion() {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 1), heartbeatSeconds: 60, liveRate: 0))
        _ = policy.decide(weightReport("left", grams: 100, stable: true), now: 0)
        let moving = policy.decide(weightReport("left", grams: 180, stable: false), now: 1).state
        #expect(moving?.stable == false, "losing stability is published")
        #expect(moving?.grams == 100, "the state does not follow the moving pan: \(String(describing: moving))")
        #expect(
            policy.decide(weightReport("left", grams: 190, stable: false), now: 2).state == nil, "still moving: nothing"
        )
        let settled = policy.decide(weightReport("left", grams: 250, stable: true), now: 3).state
        #expect(settled?.grams == 250 && settled?.stable == true, "the new stable weight is published")
    }

    @Test("every field of a state is from one reading: a lifted pan's state keeps the stable grams and their percent")
    func oneReadingPerState() throws {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 0.1), heartbeatSeconds: 60, liveRate: 0))
        let rest = weightReport("left", grams: 114.8, stable: true, percent: 12.4, time: 100, flow: 0)
        _ = policy.decide(rest, now: 0)
        let lifted = weightReport("left", grams: -29.5, stable: false, percent: -3.2, time: 101, flow: -80)
        let decided = policy.decide(lifted, now: 1).state
        let state = try #require(decided, "losing stability is published")
        #expect(state.stable == false, "the flag says the pan moved: \(state)")
        #expect(
            state.grams == 114.8 && state.percent == 12.4 && state.time == 100 && state.flow == 0,
            "grams, percent, time and flow of different readings: \(state)")
        let beat = policy.heartbeat(now: 61)
        let heartbeat = try #require(beat, "the heartbeat after 60 s")
        #expect(heartbeat == state, "the heartbeat mixed in the moving reading: \(heartbeat)")
    }

    @Test("a quiet pan publishes one state and then only its heartbeats: at most 1 + 3600 / heartbeat an hour")
    func messagesPerHourAtRest() {
        let heartbeat = 300.0
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 0.1), heartbeatSeconds: heartbeat))
        var states = 0
        var generator = SystemRandomNumberGenerator()
        // An hour at the daemon's 10 readings a second: the raw grams and percent wander with the
        // noise, the displayed count (the engine's hysteresis) stays.
        for tick in 0..<36_000 {
            let now = Double(tick) / 10
            let noise = Double.random(in: -0.04...0.04, using: &generator)
            let report = WeightReport(
                sensor: "left", time: 1_795_388_111 + now, grams: 152.2 + noise, display: "152.2", unit: "g",
                percent: 15.22 + noise / 10, stable: true, overload: false, underload: false, zero: false, tare: 0,
                heaviest: true, hue: 0, rgb: "#ff0000", calibrated: true, division: 0.1, divisions: 1522)
            if policy.decide(report, now: now).state != nil { states += 1 }
            if tick % 10 == 0, policy.heartbeat(now: now) != nil { states += 1 }
        }
        let bound = 1 + Int(3600 / heartbeat)
        #expect(states <= bound, "\(states) state messages in an hour at rest, bound \(bound)")
        #expect(states >= 1, "the first state was never published")
    }

    @Test("overload appearing and going is published at once")
    func overload() {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 1), heartbeatSeconds: 60, liveRate: 0))
        _ = policy.decide(weightReport("left", grams: 100, stable: true), now: 0)
        #expect(
            policy.decide(weightReport("left", grams: 100, stable: true, overload: true), now: 1).state?.overload
                == true)
        #expect(policy.decide(weightReport("left", grams: 100, stable: true), now: 2).state?.overload == false)
    }

    @Test("the heartbeat republishes an unchanged state after its interval, not before")
    func heartbeat() {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 1), heartbeatSeconds: 60, liveRate: 0))
        _ = policy.decide(weightReport("left", grams: 100, stable: true), now: 0)
        _ = policy.decide(weightReport("left", grams: 100, stable: true), now: 30)
        #expect(policy.heartbeat(now: 59.9) == nil, "no heartbeat before 60 s")
        #expect(policy.heartbeat(now: 60)?.grams == 100, "the unchanged state again at 60 s")
        #expect(policy.heartbeat(now: 61) == nil, "the heartbeat restarts its interval")
        #expect(policy.heartbeat(now: 120)?.grams == 100)
    }

    @Test("the live topic gets at most live_rate readings a second", arguments: [1.0, 2.0, 5.0])
    func liveRate(rate: Double) {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 1), heartbeatSeconds: 60, liveRate: rate))
        var live = 0
        for sample in 0..<800 {  // 10 s of readings at 80 SPS
            if policy.decide(weightReport("left", grams: Double(sample), stable: false), now: Double(sample) / 80).live
                != nil
            {
                live += 1
            }
        }
        #expect(live == Int(10 * rate), "10 s at \(rate) Hz must give \(Int(10 * rate)) live messages, got \(live)")
    }

    @Test("the live topic carries the daemon's flow rate in g/s, and null while the daemon has none")
    func liveFlow() throws {
        var policy = PublishingPolicy(.init(division: DivisionRounding(grams: 0.1), heartbeatSeconds: 60, liveRate: 2))
        let none = try #require(policy.decide(weightReport("left", grams: 10, stable: false), now: 0).live)
        #expect(none.flow == nil, "a flow on the live topic before the daemon sent one: \(none)")
        let encoded = String(decoding: try JSONEncoder().encode(none), as: UTF8.self)
        #expect(encoded.contains(#""flow":null"#), "flow is not sent as null, so a template cannot see it: \(encoded)")
        let pouring = policy.decide(weightReport("left", grams: 12.5, stable: false, flow: 4.25), now: 0.5).live
        #expect(pouring?.flow == 4.25, "the live topic lost the rate: \(String(describing: pouring))")
    }

    @Test("a weight a hair below zero is published as 0, not -0")
    func noNegativeZero() {
        var policy = PublishingPolicy(Self.tenth)
        let state = policy.decide(weightReport("left", grams: -0.01, stable: true, percent: -0.001), now: 0).state
        #expect(
            state?.grams?.sign == .plus && state?.percent?.sign == .plus, "-0 in JSON: \(String(describing: state))")
    }

    @Test(
        "decimals of the display precision follow the division",
        arguments: [(0.01, 2), (0.05, 2), (0.1, 1), (0.2, 1), (0.5, 1), (1.0, 0), (2.0, 0), (10.0, 0)])
    func precision(division: Double, decimals: Int) {
        #expect(DivisionRounding(grams: division).decimals == decimals, "d = \(division) g shows \(decimals) decimals")
    }
}
