import Testing

@testable import PlumProtocol

/// `DEVICES` carries the daemon's start, restarts and free space, and each sensor's last fault's
/// time (protocol 1.6), encoded once and decoded once.
@Suite("DEVICES daemon object and last_fault_time")
struct DevicesDaemonStatusTests {
    static func device(lastFault: String? = nil, time: String? = nil) -> DevicesReport.Device {
        DevicesReport.Device(
            sensor: "pan", index: 0, kind: "hx711", wiring: "", state: "ok", rate: 80, nominalRate: 80, published: 9,
            discarded: [:], notReady: 0, faults: 0, notices: [], calibrated: true, lastFault: lastFault,
            lastFaultTime: time)
    }

    static let daemon = DaemonStatus(
        started: "2026-11-27T06:30:00Z", starts: 4, uncleanStops: 1, lastStop: "unclean",
        stateDirectory: "/var/lib/plumscale", stateFreeBytes: 6_123_456_789_012, stateTotalBytes: 7_000_000_000_000)

    @Test("the fields follow the others, round-trip to the same value and bytes, and are absent when unset")
    func roundTrip() throws {
        let report = Report.devices(
            DevicesReport(
                devices: [Self.device(lastFault: "not-ready: no DOUT", time: "2026-11-27T07:01:02Z"), Self.device()],
                uptime: 12.5, daemon: Self.daemon))
        let line = report.line
        #expect(
            line.hasSuffix(
                #""uptime":12.5,"daemon":{"started":"2026-11-27T06:30:00Z","starts":4,"unclean_stops":1,"#
                    + #""last_stop":"unclean","state_directory":"/var/lib/plumscale","#
                    + #""state_free_bytes":6123456789012,"state_total_bytes":7000000000000}}"# + "\n"),
            "\(line)")
        #expect(line.contains(#""last_fault":"not-ready: no DOUT","last_fault_time":"2026-11-27T07:01:02Z"}"#))
        let decoded = try Report.decode(line.dropLast()[...])
        #expect(decoded == report && decoded.line == line)
        guard case .devices(let devices) = decoded else { return }
        #expect(devices.daemon?.restarts == 3, "every start but the first is a restart")
        #expect(devices.devices[1].lastFaultTime == nil)
        let bare = Report.devices(DevicesReport(devices: [Self.device()])).line
        #expect(!bare.contains("daemon") && !bare.contains("last_fault"), "\(bare)")
        let failed = DaemonStatus(started: "2026-11-27T06:30:00Z", stateError: "reading the free space of /x: ENOENT")
        let failedLine = Report.devices(DevicesReport(devices: [], daemon: failed)).line
        #expect(try Report.decode(failedLine.dropLast()[...]) == .devices(DevicesReport(devices: [], daemon: failed)))
        #expect(failed.restarts == nil && !failed.isStateSpaceLow, "unknown counts and space are not guessed")
    }

    @Test("a save failing on a full disk travels as state_save_error, last, and decodes to the same text")
    func saveError() throws {
        var status = Self.daemon
        status.stateSaveError = "pan: zero and tare not saved since 2026-11-27T07:00:00Z (2 failed): ENOSPC"
        let line = Report.devices(DevicesReport(devices: [], daemon: status)).line
        #expect(
            line.hasSuffix(
                #""state_total_bytes":7000000000000,"state_save_error":"pan: zero and tare not saved since "#
                    + #"2026-11-27T07:00:00Z (2 failed): ENOSPC"}}"# + "\n"), "\(line)")
        #expect(try Report.decode(line.dropLast()[...]) == .devices(DevicesReport(devices: [], daemon: status)))
    }

    @Test("a DEVICES line from a daemon before 1.6 decodes without them")
    func older() throws {
        let line =
            #"{"class":"DEVICES","devices":[{"sensor":"pan","index":0,"kind":"hx711","wiring":"","#
            + #""state":"ok","rate":80,"nominal_rate":80,"published":9,"discarded":{},"not_ready":0,"#
            + #""faults":0,"notices":[],"calibrated":true,"last_fault":"fault: EIO"}],"uptime":3}"#
        guard case .devices(let report) = try Report.decode(line[...]) else {
            Issue.record("not DEVICES")
            return
        }
        #expect(report.daemon == nil && report.devices.first?.lastFaultTime == nil)
        #expect(report.devices.first?.lastFault == "fault: EIO")
    }

    struct SpaceCase: Sendable, CustomTestStringConvertible {
        var free: Int64
        var total: Int64
        var low: Bool
        var testDescription: String { "\(free) of \(total): \(low ? "low" : "enough")" }
    }

    @Test(
        "free space is low below 50 MB or below 5 % of the file system",
        arguments: [
            SpaceCase(free: 49_999_999, total: 100_000_000_000, low: true),
            SpaceCase(free: 50_000_000, total: 1_000_000_000, low: false),
            SpaceCase(free: 60_000_000, total: 1_000_000_000, low: false),
            SpaceCase(free: 60_000_000, total: 2_000_000_000, low: true),
            SpaceCase(free: 4_999_999_999, total: 100_000_000_000, low: true),
            SpaceCase(free: 5_000_000_000, total: 100_000_000_000, low: false),
            SpaceCase(free: 0, total: 0, low: true)
        ])
    func lowSpace(_ space: SpaceCase) {
        // 5 % of the total, computed apart from the code's fraction: free × 20 < total.
        let expected = space.free < 50_000_000 || space.free * 20 < space.total
        #expect(expected == space.low, "the table itself follows the rule")
        #expect(DaemonStatus.isLow(free: space.free, total: space.total) == space.low)
        let status = DaemonStatus(stateFreeBytes: space.free, stateTotalBytes: space.total)
        #expect(status.isStateSpaceLow == space.low)
    }
}
