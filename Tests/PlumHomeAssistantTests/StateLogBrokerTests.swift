import Logging
import PlumHomeAssistant
import PlumProtocol
import PlumTestSupport
import Testing

/// The daemon sends a sensor's `STATE` again at each retry of a fault. The bridge used to log
/// each, and a second line when the pan became unavailable; its journal is on the SD card.
@Suite("the bridge logs a pan's state once per change, on a real broker", .timeLimit(.minutes(2)))
struct StateLogBrokerTests {
    @Test("a fault sent three times, then another reason, then ok: three lines, the faults as warnings")
    func oncePerChange() async throws {
        let broker = try await MosquittoBroker.start()
        let log = LogLines()
        let bridge = try BridgeBrokerTests.Running(port: broker.port, logger: log.logger(label: "plumscale-mqtt.test"))
        bridge.link.send(.connected(pans: ["left"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        // Deadlines of a minute: a busy machine (a build beside) once took longer than 10 s to
        // connect, and the default would wait no longer; a deadline costs nothing when all is well.
        let online = await watcher.first(within: 60) { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        try #require(online != nil, "the bridge says online on the broker within a minute")
        let eio = StateReport(sensor: "left", state: "fault", reason: "read failed: EIO")
        let enodev = StateReport(sensor: "left", state: "fault", reason: "opening: ENODEV")
        for report in [eio, eio, eio, enodev, enodev, StateReport(sensor: "left", state: "ok", reason: nil)] {
            bridge.link.send(.report(.state(report)))
        }
        #expect(
            await eventually(within: .seconds(60)) { log.all.contains("info: left: ok") },
            "the return is logged: \(log.all)")
        let unavailable = "; the sensor delivers no samples, its entities are unavailable"
        #expect(
            log.all.filter { $0.contains(" left: ") } == [
                "warning: left: fault: read failed: EIO" + unavailable,
                "warning: left: fault: opening: ENODEV" + unavailable, "info: left: ok"
            ], "one line per change: \(log.all)")
        watcher.stop()
        await bridge.stop()
    }
}
