import PlumProtocol
import PlumTestSupport
import Testing

@testable import PlumHomeAssistant

/// The figures of the diagnostic entities, as the bridge makes them from the daemon's counters:
/// each expected count is worked out here from the events the test makes happen.
@Suite("Diagnostics: the daemon's counters as counts in the last hour, its state and last fault")
struct DiagnosticsTests {
    @Test("one event a minute for two hours, read each minute: 60 in any hour once an hour has passed")
    func slidingHour() {
        var count = HourlyCount()
        var expected: [Double: Int] = [:]
        for minute in 0...120 {
            let time = Double(minute) * 60
            count.record(minute, at: time)  // the daemon's total: one event a minute since minute 0
            // The events after the reading an hour before (or after the first reading).
            expected[time] = minute - max(0, minute - 60)
            #expect(count.perHour(at: time) == expected[time], "at minute \(minute)")
        }
        #expect(expected[120 * 60] == 60 && expected[30 * 60] == 30)
    }

    @Test("a burst is counted for an hour after it, then no more")
    func burstLeavesTheWindow() {
        var count = HourlyCount()
        count.record(100, at: 0)  // what the daemon counted before the bridge watched is not this hour's
        count.record(100, at: 60)
        count.record(125, at: 120)  // 25 in this minute
        #expect(count.perHour(at: 120) == 25)
        count.record(125, at: 3660)  // the reading at 60 s is an hour old: its baseline, the burst after it
        #expect(count.perHour(at: 3660) == 25)
        count.record(125, at: 3720)  // the reading at 120 s, after the burst, is the baseline now
        #expect(count.perHour(at: 3720) == 0)
    }

    @Test("a daemon that restarts counts from 0 again: what it counted since is added, nothing is lost")
    func restartedDaemon() {
        var count = HourlyCount()
        count.record(10, at: 0)
        count.record(15, at: 60)  // 5
        count.record(3, at: 120)  // restarted and counted 3
        count.record(4, at: 180)  // 1 more
        #expect(count.perHour(at: 180) == 5 + 3 + 1)
    }

    /// A DEVICES line as plumscaled sends it, with `late` late read-outs and `stale` stale samples
    /// discarded since it started.
    static func devices(
        late: Int, stale: Int, state: String = "ok", lastFault: String = "fault: bus error"
    ) throws -> DevicesReport {
        let line =
            #"{"class":"DEVICES","devices":[{"sensor":"left","index":0,"kind":"hx711","wiring":"","state":"\#(state)","#
            + #""rate":80,"nominal_rate":80,"published":1000,"#
            + #""discarded":{"late_readout":\#(late),"stale":\#(stale)},"not_ready":0,"faults":1,"notices":[],"#
            + #""calibrated":true,"calibration_date":"2026-11-22T06:30:00Z","calibration_quality":"fine","#
            + #""calibration_grade":"good","last_fault":"\#(lastFault)"}],"uptime":7200.5}"#
        guard case .devices(let report) = try Report.decode(Substring(line)) else { fatalError("not DEVICES") }
        return report
    }

    @Test("DEVICES becomes a pan's figures; a STATE fault changes its state and last fault; warming up does not")
    func keeperFromDevicesAndState() throws {
        var keeper = DiagnosticsKeeper()
        let firstChange = keeper.devices(try Self.devices(late: 4, stale: 2), at: 0)
        #expect(firstChange == ["left"])
        let first = try #require(keeper.pans["left"])
        #expect(
            first
                == PanDiagnostics(
                    state: "ok", reason: nil, lastFault: "fault: bus error", calibrationDate: "2026-11-22T06:30:00Z",
                    calibrationGrade: "good", lateReadoutsPerHour: 0, discardsPerHour: 0),
            "\(first)")
        let unchanged = keeper.devices(try Self.devices(late: 4, stale: 2), at: 60)
        #expect(unchanged.isEmpty, "nothing changed, nothing sent")
        let counted = keeper.devices(try Self.devices(late: 7, stale: 3), at: 120)
        #expect(counted == ["left"])
        #expect(keeper.pans["left"]?.lateReadoutsPerHour == 3 && keeper.pans["left"]?.discardsPerHour == 3 + 1)

        let faulted = keeper.state(StateReport(sensor: "left", state: "not-ready", reason: "DOUT stays high"))
        #expect(faulted && keeper.pans["left"]?.state == "not-ready")
        #expect(keeper.pans["left"]?.lastFault == "not-ready: DOUT stays high")
        let warming = keeper.state(StateReport(sensor: "left", state: "warming-up", reason: "warming up for 2.0 s"))
        #expect(warming && keeper.pans["left"]?.lastFault == "not-ready: DOUT stays high", "warming up is no fault")
        let unknown = keeper.state(StateReport(sensor: "right", state: "fault", reason: "x"))
        #expect(!unknown, "no DEVICES of right yet")
    }

    @Test("a calibration date Home Assistant cannot read as a time is unknown, not a rejected state")
    func calibrationDateIsATime() {
        #expect(DiagnosticsKeeper.timestamp("2026-11-22T06:30:00Z") == "2026-11-22T06:30:00Z")
        #expect(DiagnosticsKeeper.timestamp("simulated chip") == nil)
    }

    @Test("the daemon's start moves only when it moved by more than a minute: a restart, a clock set")
    func startedIgnoresJitter() {
        var keeper = DiagnosticsKeeper()
        let first = keeper.uptime(100, now: 1_000_000)
        #expect(first && keeper.started == 999_900)
        let jitter = keeper.uptime(160.4, now: 1_000_060)
        #expect(!jitter && keeper.started == 999_900, "a poll a minute later, 0.4 s of jitter")
        let restarted = keeper.uptime(5, now: 1_000_200)
        #expect(restarted && keeper.started == 1_000_195, "restarted")
    }

    @Test("null for what is not known, a fault reason within Home Assistant's 255 characters")
    func encoding() throws {
        let long = String(repeating: "x", count: 400)
        let figures = PanDiagnostics(
            state: "ok", lastFault: long, lateReadoutsPerHour: 0, discardsPerHour: 2)
        let json = try #require(JSONValue.parse(BridgeState.json(figures)))
        #expect(json["calibration_date"] == .null && json["calibration_grade"] == .null && json["reason"] == .null)
        #expect(json["last_fault"]?.string?.count == 255 && json["discards_per_hour"]?.number == 2)
    }
}
