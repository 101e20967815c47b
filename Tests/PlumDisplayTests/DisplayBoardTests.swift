import PlumProtocol
import Testing

@testable import PlumDisplay

/// The board's rules: what a pan shows for each report, and what the screen shows with no
/// weight to trust.
@Suite("What the display shows for the daemon's reports")
struct DisplayBoardTests {
    static func weight(
        _ sensor: String, grams: Double?, display: String, stable: Bool = true, tare: Double = 0,
        heaviest: Bool = false, zero: Bool = false, overload: Bool = false, state: String? = nil,
        stale: Bool = false
    ) -> Report {
        .weight(
            WeightReport(
                sensor: sensor, time: 1_795_388_111, grams: grams, display: display, unit: "g", percent: 22.7,
                stable: stable, overload: overload, underload: false, zero: zero, tare: tare, heaviest: heaviest,
                hue: 81.6, rgb: "#a8ff00", calibrated: true, reason: state.map { "\($0): no samples for 2 s" },
                division: 0.1, divisions: grams.map { Int64(($0 * 10).rounded()) }, state: state, stale: stale))
    }

    @Test("a weight shows its digits without the unit, with stable, net, zero and heaviest marks")
    func weightMarks() throws {
        var board = DisplayBoard(sensors: [], pageAddress: nil)
        board.linkChanged(.connected)
        board.apply(Self.weight("left", grams: 87.3, display: "87.3 g", tare: 12, heaviest: true), now: 0)
        guard case .pans(let pans) = board.picture(now: 0.1).body else {
            Issue.record("no pans")
            return
        }
        let pan = try #require(pans.first)
        #expect(pan.reading == .weight("87.3", unit: "g") && pan.stable && pan.net && pan.heaviest)
        #expect(abs((pan.force ?? 0) - 0.227) < 1e-9, "the percent of the full scale, as a fraction for the bar")
    }

    @Test("a sensor in an outage or a stale report never shows a number; an overload shows 100%+")
    func noNumberWithoutAWeight() throws {
        var board = DisplayBoard(sensors: ["left", "right", "mid"], pageAddress: nil)
        board.linkChanged(.connected)
        board.apply(Self.weight("left", grams: nil, display: "no signal", state: "fault", stale: true), now: 0)
        board.apply(Self.weight("right", grams: 400, display: "100%+", overload: true), now: 0)
        board.apply(Self.weight("mid", grams: 10, display: "10.0 g", heaviest: true, stale: true), now: 0)
        guard case .pans(let pans) = board.picture(now: 0).body else {
            Issue.record("no pans")
            return
        }
        #expect(pans.map(\.name) == ["left", "right", "mid"], "the configured order")
        #expect(pans[0].digits == "----" && pans[0].status == "no signal" && !pans[0].stable)
        #expect(pans[1].digits == "100%+" && abs((pans[1].force ?? 0) - 0.227) < 1e-9, "an overload keeps its bar")
        #expect(pans[2].digits == "----" && pans[2].status == "stale" && !pans[2].heaviest)
    }

    @Test("a pan whose reports stop for 5 s shows stale, though the link is up")
    func silenceIsStale() throws {
        var board = DisplayBoard(sensors: [], pageAddress: nil)
        board.linkChanged(.connected)
        board.apply(Self.weight("left", grams: 42, display: "42.0 g"), now: 10)
        guard case .pans(let fresh) = board.picture(now: 10 + DisplayBoard.silenceLimit).body,
            case .pans(let silent) = board.picture(now: 10.01 + DisplayBoard.silenceLimit).body
        else {
            Issue.record("no pans")
            return
        }
        #expect(fresh[0].digits == "42.0", "within the limit the weight stands")
        #expect(silent[0].status == "stale" && silent[0].digits == "----", "past it, no number")
    }

    @Test("with the daemon away the screen says so and where the page is, and forgets the weights")
    func daemonAway() {
        var board = DisplayBoard(sensors: [], pageAddress: "scale.local:8385")
        board.linkChanged(.connected)
        board.apply(Self.weight("left", grams: 42, display: "42.0 g"), now: 0)
        board.linkChanged(.away(reason: "no daemon at /run/plumscale/plumscaled.sock (ENOENT); start it"))
        #expect(
            board.picture(now: 0).body
                == .message(
                    title: "plumscaled not running",
                    lines: ["no daemon at /run/plumscale/plumscaled.sock (ENOENT)", "scale.local:8385"]))
        board.linkChanged(.connected)
        #expect(
            board.picture(now: 0).body
                == .message(title: "PlumScale", lines: ["waiting for a weight", "scale.local:8385"]),
            "a new connection shows no weight from the old one")
    }

    @Test("a session's start, items and stop set and clear the session line")
    func sessionLine() {
        var board = DisplayBoard(sensors: [], pageAddress: nil)
        board.linkChanged(.connected)
        board.apply(Self.weight("left", grams: 87.3, display: "87.3 g"), now: 0)
        let running = SessionSummary(
            name: "crate-12", sensor: "left", started: "2026-12-07T08:00:00Z", division: 0.1, count: 0, total: 0)
        board.apply(.session(SessionReport(action: "start", ok: true, message: "", sessions: [running])), now: 0)
        #expect(board.picture(now: 0).session == SessionLine(name: "crate-12", count: 0, lastItem: nil))
        board.apply(
            .item(
                ItemReport(
                    sensor: "left", sequence: 1, item: 1, event: "placed", divisions: 873, grossAfterDivisions: 873,
                    division: 0.1, time: 0)), now: 0)
        var counted = running
        counted.count = 1
        counted.total = 87.3
        board.apply(.session(SessionReport(action: "item", ok: true, message: "", sessions: [counted])), now: 0)
        #expect(board.picture(now: 0).session == SessionLine(name: "crate-12", count: 1, lastItem: "87.3 g"))
        var stopped = counted
        stopped.stopped = "2026-12-07T09:00:00Z"
        board.apply(.session(SessionReport(action: "stop", ok: true, message: "", sessions: [stopped])), now: 0)
        #expect(board.picture(now: 0).session == nil)
    }

    @Test("the daemon's order of its sensors wins over the order reports came in")
    func sensorOrder() {
        var board = DisplayBoard(sensors: [], pageAddress: nil)
        board.linkChanged(.connected)
        board.apply(Self.weight("right", grams: 1, display: "1.0 g"), now: 0)
        board.apply(Self.weight("left", grams: 2, display: "2.0 g"), now: 0)
        board.setSensorOrder(["left", "right"])
        guard case .pans(let pans) = board.picture(now: 0).body else {
            Issue.record("no pans")
            return
        }
        #expect(pans.map(\.name) == ["left", "right"])
    }
}
