import PlumConsole
import PlumHistory
import PlumProtocol
import Testing

@Suite("plumscale status in words: durations, sizes, warnings, a sensor's fault")
struct StatusTextTests {
    @Test("durations show their two largest units")
    func durations() {
        #expect(StatusText.duration(12.9) == "12 s")
        #expect(StatusText.duration(4 * 60 + 12) == "4 min 12 s")
        #expect(StatusText.duration(2 * 3600 + 5 * 60 + 59) == "2 h 5 min")
        #expect(StatusText.duration(3 * 86_400 + 4 * 3600 + 1) == "3 d 4 h")
    }

    @Test("sizes are in decimal units, as df -H and card makers count")
    func sizes() {
        #expect(StatusText.bytes(999) == "999 B")
        #expect(StatusText.bytes(812_000) == "812 kB")
        #expect(StatusText.bytes(1_234_567_890) == "1.2 GB")
        #expect(StatusText.bytes(49_999_999) == "50 MB")
    }

    @Test("low free space is a warning naming the directory and what to do; enough space none")
    func spaceWarning() throws {
        let low = DaemonStatus(
            stateDirectory: "/var/lib/plumscale", stateFreeBytes: 40_000_000, stateTotalBytes: 2_000_000_000)
        let warning = try #require(StatusText.spaceWarning(low))
        #expect(warning.hasPrefix("warning: /var/lib/plumscale has only 40 MB free (2 %), below 50 MB or 5 %"))
        #expect(warning.contains("free some space"))
        let enough = DaemonStatus(stateDirectory: "/x", stateFreeBytes: 4_000_000_000, stateTotalBytes: 8_000_000_000)
        #expect(StatusText.spaceWarning(enough) == nil)
        #expect(StatusText.spaceWarning(DaemonStatus(stateError: "ENOENT")) == nil, "unknown space is not low")
    }

    @Test("saves failing now are a warning of their own, with the daemon's words; none while saves work")
    func saveWarning() {
        let failing = DaemonStatus(stateSaveError: "pan: zero and tare not saved since 2026-11-27T07:00:00Z")
        #expect(
            StatusText.saveWarning(failing)
                == "warning: the daemon cannot save its state: pan: zero and tare not saved since 2026-11-27T07:00:00Z")
        #expect(StatusText.saveWarning(DaemonStatus(stateFreeBytes: 0, stateTotalBytes: 1)) == nil)
        #expect(StatusText.saveWarning(nil) == nil)
    }

    @Test("a sensor's last fault is shown with when it began")
    func lastFault() {
        let device = DevicesReport.Device(
            sensor: "left", index: 0, kind: "hx711", wiring: "", state: "ok", rate: 80, nominalRate: 80,
            published: 9, discarded: [:], notReady: 1, faults: 0, notices: [], calibrated: false,
            lastFault: "not-ready: no conversion from DOUT", lastFaultTime: "2026-11-27T06:01:02Z")
        #expect(
            DeviceText.describe(device).contains(
                "\n  last fault   not-ready: no conversion from DOUT, at 2026-11-27T06:01:02Z"))
    }
}
