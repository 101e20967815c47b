import PlumCore
import PlumProtocol
import Testing

@testable import PlumStation

/// What a press that did nothing tells a client: the BUTTON report of each outcome a press can
/// have without the engine refusing it (the engine's own refusals run in ButtonWatcherTests).
@Suite("A press's outcome as a BUTTON report: a code and the reason in words, said once")
struct ButtonReportTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var gesture: ButtonGesture
        var outcome: WeighingOutcome
        var reason: String
        var says: String
        var testDescription: String { "\(gesture) → \(reason)" }
    }

    @Test(
        "a press on a sensor that delivers nothing, never settles, or is not there is refused with why",
        arguments: [
            Case(
                gesture: .short, outcome: WeighingOutcome(outage: .notReady(reason: "DOUT stays high")),
                reason: "sensorUnavailable",
                says: "tare refused: the sensor delivers no samples (not-ready: DOUT stays high)"),
            Case(
                gesture: .long, outcome: WeighingOutcome(timedOut: true), reason: "notStable",
                says: "zero refused: the load was not stable within 10 s"),
            Case(
                gesture: .short, outcome: WeighingOutcome(unknownSensor: true), reason: "unknownSensor",
                says: "tare refused: no sensor gone runs")
        ])
    func refusedWithoutTheEngine(_ press: Case) {
        let report = ReportBuilder.buttonReport(press.gesture, sensor: "gone", outcome: press.outcome, time: 5)
        #expect(!report.ok && report.reason == press.reason && report.tare == nil && report.offset == nil, "\(report)")
        #expect(report.message.hasPrefix(press.says), "message: \(report.message)")
        #expect(report.message.ranges(of: "refused").count == 1, "said once: \(report.message)")
        #expect(report.gesture == press.gesture.rawValue && report.time == 5)
        #expect(report.action == (press.gesture == .short ? "tare" : "zero"))
    }

    @Test("the engine's refusal is passed on as it is, its code and its sentence, not wrapped in another")
    func engineRefusal() {
        let refusal = Refusal(.notStable, "tare refused: the load is moving", hint: "wait until the pan is still")
        let report = ReportBuilder.buttonReport(
            .short, sensor: "left", outcome: WeighingOutcome(result: .failure(refusal)), time: 1)
        #expect(report.reason == "notStable" && report.message == refusal.description, "\(report)")
    }
}
