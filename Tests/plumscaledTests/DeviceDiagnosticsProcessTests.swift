import Foundation
import PlumClient
import PlumProtocol
import PlumTestSupport
import PlumTestThreads
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// What Home Assistant's diagnostic entities show comes from the daemon's `?DEVICES`: here the
/// real plumscaled, with a pan whose wire is pulled and put back.
@Suite(
    "?DEVICES carries the daemon's uptime, a calibration's grade and a sensor's last fault",
    .tags(.process), .timeLimit(.minutes(3)), .ownThreads)
struct DeviceDiagnosticsProcessTests {
    @Test("uptime grows; calibrated pans have a grade; a wire pulled and put back leaves its not-ready as last fault")
    func uptimeGradeAndLastFault() async throws {
        let directory = try TemporaryDirectory(prefix: "plumdiag")
        let unplug = directory.file("left.unplugged")
        let daemon = try await offPool {
            try DaemonFixture(
                configuration: """
                    [[sensor]]
                    name = "left"
                    kind = "simulated-hx711"
                    load_grams = 152.3
                    ready_timeout_ms = 300
                    unplug_file = "\(unplug)"
                    """, directory: directory)
        }
        try await offPool {
            try daemon.waitForReadings()
            let client = try daemon.client()
            func devices() throws -> DevicesReport {
                try client.devicesReport()
            }
            let first = try devices()
            let left = try #require(first.devices.first, "DEVICES names the pan")
            #expect(left.lastFault == nil, "no fault yet: \(left)")
            #expect(
                left.calibrated && left.calibrationDate != nil
                    && ["good", "acceptable", "poor", "not-checked"].contains(left.calibrationGrade ?? ""),
                "a calibrated pan has its fit's grade: \(left)")
            let startUptime = try #require(first.uptime, "DEVICES has the daemon's uptime")
            #expect(startUptime >= 0 && startUptime < 120, "the daemon has just started: \(startUptime) s")

            let pulled = time(nil)
            writeFile(unplug, "")
            try waitUntil("the pulled wire to show in DEVICES", timeout: .seconds(20)) {
                try devices().devices.first?.state == "not-ready"
            }
            unlink(unplug)
            var back: DevicesReport.Device?
            try waitUntil("the pan to work again", timeout: .seconds(20)) {
                back = try devices().devices.first
                return back.map { !["not-ready", "fault", "starting"].contains($0.state) } ?? false
            }
            let fault = back?.lastFault ?? "none"
            #expect(
                fault.hasPrefix("not-ready: ") && fault.contains("DOUT"),
                "the not-ready is kept as the last fault once the pan works again: \(fault)")
            // The fault's wall time, read with the system's own parser: between the pull and now.
            let faultTime = try #require(back?.lastFaultTime, "the fault has its time: \(String(describing: back))")
            let faultDate = try #require(try? Date(faultTime, strategy: .iso8601), "ISO 8601 UTC: \(faultTime)")
            let faultSeconds = Int(faultDate.timeIntervalSince1970)
            #expect(
                faultSeconds >= pulled && faultSeconds <= time(nil),
                "the fault began after the wire was pulled (\(pulled)) and before now: \(faultTime)")
            let later = try #require(try devices().uptime)
            #expect(later > startUptime, "uptime grew from \(startUptime) s to \(later) s")
        }
        #expect(daemon.terminate() == 0, "log: \(daemon.log)")
    }
}
