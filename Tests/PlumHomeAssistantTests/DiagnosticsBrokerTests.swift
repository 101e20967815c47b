import FoundationEssentials
import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// The diagnostic entities read what the daemon's `?DEVICES` says, on a real broker, with the
/// daemon scripted (DeviceDiagnosticsProcessTests holds the real daemon to the same fields).
@Suite("the diagnostic entities get the daemon's figures, on a real broker", .timeLimit(.minutes(2)))
struct DiagnosticsBrokerTests {
    @Test("a pan's figures and the daemon's start arrive retained; a fault asks DEVICES again, with the hour's counts")
    func diagnostics() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.answerDevices(try DiagnosticsTests.devices(late: 4, stale: 2))
        let watcher = try await MessageCollector(
            port: broker.port, subscribe: ["plumscale/#", "homeassistant/device/+/config"])
        bridge.link.send(.connected(pans: ["left"]))
        let topic = "plumscale/kitchen/left/diagnostics"

        let first = try #require(await watcher.first { $0.topic == topic }, "no diagnostics for left")
        let figures = try #require(JSONValue.parse(first.text), "not JSON: \(first.text)")
        #expect(
            figures
                == .object([
                    "state": .string("ok"), "reason": .null, "last_fault": .string("fault: bus error"),
                    "calibration_date": .string("2026-11-22T06:30:00Z"), "calibration_grade": .string("good"),
                    "late_readouts_per_hour": .number(0), "discards_per_hour": .number(0)
                ]),
            "the first figures: the daemon's, and nothing counted yet this hour: \(first.text)")

        let started = await watcher.first { $0.topic == "plumscale/kitchen/diagnostics" }
        let text = try #require(
            JSONValue.parse(started?.text ?? "")?["started"]?.string, "\(String(describing: started))")
        let start = try Date(text, strategy: .iso8601).timeIntervalSince1970
        let expected = Date().timeIntervalSince1970 - 7200.5
        #expect(abs(start - expected) < 10, "started \(text): now less the daemon's 7200.5 s uptime")

        // The wire is pulled: the daemon says so, and has counted 3 late read-outs and a stale sample.
        let pulled = try DiagnosticsTests.devices(
            late: 7, stale: 3, state: "not-ready", lastFault: "not-ready: DOUT stays high")
        bridge.link.answerDevices(pulled)
        bridge.link.send(.report(.state(StateReport(sensor: "left", state: "not-ready", reason: "DOUT stays high"))))
        let counted = await watcher.first {
            $0.topic == topic && JSONValue.parse($0.text)?["late_readouts_per_hour"]?.number == 3
        }
        let after = JSONValue.parse(counted?.text ?? "")
        #expect(
            after?["state"]?.string == "not-ready" && after?["last_fault"]?.string == "not-ready: DOUT stays high"
                && after?["discards_per_hour"]?.number == 4,
            "the fault and this hour's counts: \(String(describing: counted?.text))")

        let device = "homeassistant/device/plumscale_kitchen/config"
        let config = await watcher.first { $0.topic == device }
        let entities = DeviceConfigReader(config?.payload ?? [], topic: device)?.entities ?? [:]
        let entity = { (key: String) in entities["homeassistant/sensor/plumscale_kitchen/\(key)/config"] }
        let keys = ["sensor_state", "last_fault", "calibration_date", "calibration_grade", "late_readouts", "discards"]
        for key in keys {
            #expect(
                entity("left_\(key)")?["entity_category"]?.string == "diagnostic"
                    && entity("left_\(key)")?["state_topic"]?.string == topic,
                "left_\(key): \(String(describing: entity("left_\(key)")))")
        }
        #expect(entity("left_calibration_date")?["device_class"]?.string == "timestamp")
        #expect(entity("left_discards")?["unit_of_measurement"]?.string == "/h")
        let daemonStarted = entity("daemon_started")
        #expect(
            daemonStarted?["device_class"]?.string == "timestamp"
                && daemonStarted?["state_topic"]?.string == "plumscale/kitchen/diagnostics"
                && daemonStarted?["entity_category"]?.string == "diagnostic",
            "daemon started: \(String(describing: daemonStarted))")
        // A later subscriber (Home Assistant after a restart) still reads them: retained.
        let late = try await MessageCollector(
            port: broker.port, subscribe: [topic, "plumscale/kitchen/diagnostics"])
        #expect(
            await eventually(within: .seconds(10)) { late.messages.count == 2 && late.messages.allSatisfy(\.retain) },
            "both diagnostics topics are retained: \(late.messages.map(\.topic))")
        late.stop()
        watcher.stop()
        await bridge.stop()
    }
}
