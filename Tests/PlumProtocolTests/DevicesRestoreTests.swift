import Testing

@testable import PlumProtocol

/// `DEVICES` carries what became of a sensor's saved zero and tare (protocol 1.3), encoded once
/// and decoded once.
@Suite("DEVICES restore and restore_reason")
struct DevicesRestoreTests {
    static func device(restore: String? = nil, reason: String? = nil, state: String = "ok") -> DevicesReport.Device {
        DevicesReport.Device(
            sensor: "pan", index: 0, kind: "hx711", wiring: "", state: state, rate: 80, nominalRate: 80, published: 9,
            discarded: [:], notReady: 0, faults: 0, notices: [], calibrated: true, restore: restore,
            restoreReason: reason)
    }

    @Test("the fields follow the others, round-trip to the same value and bytes, and are absent when unset")
    func roundTrip() throws {
        let reason = "tare 12.0 g dropped: the pan is 12.0 g lighter than the tare; zero restored"
        let report = Report.devices(
            DevicesReport(devices: [
                Self.device(restore: "tare-dropped", reason: reason, state: "warming-up"), Self.device()
            ]))
        let line = report.line
        #expect(line.contains(#""calibrated":true,"restore":"tare-dropped","restore_reason":"\#(reason)"}"#), "\(line)")
        #expect(line.contains(#""state":"warming-up""#))
        let decoded = try Report.decode(line.dropLast()[...])
        #expect(decoded == report && decoded.line == line)
        guard case .devices(let devices) = decoded else { return }
        #expect(devices.devices[1].restore == nil && devices.devices[1].restoreReason == nil)
        #expect(!Report.devices(DevicesReport(devices: [Self.device()])).line.contains("restore"))
    }

    @Test("a DEVICES line from a daemon before 1.3 decodes without them")
    func older() throws {
        let line =
            #"{"class":"DEVICES","devices":[{"sensor":"pan","index":0,"kind":"hx711","wiring":"","#
            + #""state":"ok","rate":80,"nominal_rate":80,"published":9,"discarded":{},"not_ready":0,"#
            + #""faults":0,"notices":[],"calibrated":true}]}"#
        guard case .devices(let report) = try Report.decode(line[...]) else {
            Issue.record("not DEVICES")
            return
        }
        #expect(report.devices.first?.restore == nil)
    }
}
