import PlumConsole
import PlumProtocol
import Testing

/// What `plumscale status` and `plumscale calibrate` say at the edges (issue 25, items 2 and 7).
@Suite("plumscale status and calibrate at the edges")
struct EdgeTextTests {
    static func device(restore: String?, reason: String?) -> DevicesReport.Device {
        DevicesReport.Device(
            sensor: "pan", index: 0, kind: "simulated-hx711", wiring: "", state: "ok", rate: 80, nominalRate: 80,
            published: 1, discarded: [:], notReady: 0, faults: 0, notices: [], calibrated: true,
            restore: restore, restoreReason: reason)
    }

    @Test("status shows a dropped tare and why; nothing when no zero and tare were saved")
    func statusRestore() {
        let reason = "tare 12.0 g dropped: the pan is 12.0 g lighter than the tare; zero restored"
        let text = DeviceText.describe(Self.device(restore: "tare-dropped", reason: reason))
        #expect(text.contains("  zero, tare   tare-dropped: \(reason)"), "\(text)")
        #expect(!DeviceText.describe(Self.device(restore: nil, reason: nil)).contains("zero, tare"))
    }

    @Test("the wizard suggests a third point for a fit through zero and one weight, and only then")
    func thirdPoint() {
        let two = CalibrationReply(sensor: "pan", step: "fit", ok: true, points: 3, grams: [0, 200, 200])
        #expect(CalibrationText.unchecked(two)?.contains("third point") == true)
        let three = CalibrationReply(sensor: "pan", step: "fit", ok: true, points: 3, grams: [0, 100, 300])
        #expect(CalibrationText.unchecked(three) == nil)
    }
}
