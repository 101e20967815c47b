import Logging
import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// An ALERT report as plumscaled sends it, decoded by PlumProtocol (the one decoder).
func alertReport(_ name: String, sensor: String, active: Bool, grams: Double?) -> Report {
    let gramsText = grams.map { "\($0)" } ?? "null"
    let line =
        #"{"class":"ALERT","name":"\#(name)","sensor":"\#(sensor)","active":\#(active),"grams":\#(gramsText),"#
        + #""time":1795388111.5,"condition":"below","threshold":200,"hysteresis":50}"#
    guard let report = try? Report.decode(Substring(line)) else { fatalError("bad report \(line)") }
    return report
}

/// The daemon's `[[alert]]` rules as Home Assistant binary sensors, on a real mosquitto broker.
@Suite("alerts on a real broker", .timeLimit(.minutes(2)))
struct AlertBrokerTests {
    @Test(
        "alerts crossing thresholds with hysteresis reach the broker as ON then OFF, retained, with one discovery config"
    )
    func crossingWithHysteresis() async throws {
        let broker = try MosquittoBroker()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["bowl"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#", "homeassistant/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }

        // What plumscaled sends for `below = 200, hysteresis = 50` as the bowl empties to 150 g,
        // wobbles between 190 and 249 g (nothing: inside the band), and is filled to 400 g: the
        // current state after ?WATCH, then one ALERT per change.
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: false, grams: nil)))
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: true, grams: 198.6)))
        let stateTopic = "plumscale/kitchen/alert/fruit-low/state"
        #expect(await watcher.first { $0.topic == stateTopic && $0.text == "ON" } != nil, "ON when raised")
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: false, grams: 251.2)))
        #expect(
            await eventually(within: .seconds(10)) {
                watcher.messages(on: stateTopic).map(\.text) == ["OFF", "ON", "OFF"]
            },
            "the current state, then ON and OFF: \(watcher.messages(on: stateTopic).map(\.text))")

        // The alert as Home Assistant sets it up from the device config: the discovery id of the
        // per-entity topic earlier releases used.
        // The device config waits for the daemon's capacities and named tares after a connect
        // (Bridge.publishDeviceConfig), so on a busy machine it may come after the states.
        let configTopic = "homeassistant/binary_sensor/plumscale_kitchen/alert_fruit-low/config"
        _ = await watcher.first {
            DeviceConfigReader($0.payload, topic: $0.topic)?.entities[configTopic] != nil
        }
        let configs = watcher.messages.compactMap {
            DeviceConfigReader($0.payload, topic: $0.topic)?.entities[configTopic]
        }
        #expect(configs.count == 1, "one device config with the alert, not one per change: \(configs.count)")
        let config = try #require(configs.first, "a device config with the alert")
        // Home Assistant's MQTT binary_sensor and discovery fields, by name.
        #expect(config["state_topic"]?.string == stateTopic, "state_topic: \(config)")
        #expect(config["payload_on"]?.string == "ON" && config["payload_off"]?.string == "OFF", "payload_on/off")
        #expect(config["device_class"]?.string == "problem", "device_class problem: on means a problem")
        #expect(config["unique_id"]?.string == "plumscale_kitchen_alert_fruit-low", "unique_id stable across restarts")
        #expect(config["name"]?.string == "fruit-low alert", "name")
        #expect(
            config["availability"]?.array?.compactMap { $0["topic"]?.string }
                == ["plumscale/kitchen/status", "plumscale/kitchen/daemon"]
                && config["availability_mode"]?.string == "all",
            "available while the bridge and its daemon link are")
        #expect(config["device"]?["identifiers"]?.array?.first?.string == "plumscale_kitchen", "the scale's device")

        let late = try await MessageCollector(port: broker.port, subscribe: [stateTopic])
        let retained = await late.first { _ in true }
        #expect(retained?.text == "OFF" && retained?.retain == true, "a later subscriber gets OFF, retained")
        late.stop()
        watcher.stop()
        await bridge.stop()
    }

    @Test("after the broker comes back or Home Assistant restarts, alert configs and states are published again")
    func republished() async throws {
        let broker = try MosquittoBroker()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["bowl"]))
        bridge.link.send(.report(alertReport("fruit-low", sensor: "bowl", active: true, grams: 120)))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["homeassistant/device/+/config"])
        @Sendable func withAlert() -> Int {
            watcher.messages.filter {
                DeviceConfigReader($0.payload, topic: $0.topic)?.components["alert_fruit-low"]?["unique_id"] != nil
            }.count
        }
        #expect(await eventually(within: .seconds(10)) { withAlert() >= 1 }, "the alert in the device config")
        let before = withAlert()
        try watcher.client.publish(MQTTMessage(topic: "homeassistant/status", text: "online", qos: .atLeastOnce))
        #expect(
            await eventually(within: .seconds(10)) { withAlert() == before + 1 },
            "the alert in the device config again after Home Assistant's birth message")
        watcher.stop()
        await bridge.stop()
    }
}
