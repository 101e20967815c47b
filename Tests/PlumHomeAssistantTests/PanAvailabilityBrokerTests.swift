import Logging
import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// A pulled wire makes that pan's entities unavailable in Home Assistant, and no other pan's:
/// each pan has an availability topic of its own beside the bridge's, and its entities need
/// both (`availability_mode: all`).
@Suite("A pan's availability follows its sensor, on a real broker", .timeLimit(.minutes(2)))
struct PanAvailabilityBrokerTests {
    @Test(
        "a stale WEIGHT makes the pan offline and keeps its last state; the other pan stays online; a fresh WEIGHT brings it back"
    )
    func pulledWire() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: ["plumscale/#"])
        _ = await watcher.first { $0.topic == "plumscale/kitchen/status" && $0.text == "online" }
        bridge.link.send(.report(.weight(weightReport("left", grams: 152.3, stable: true))))
        bridge.link.send(.report(.weight(weightReport("right", grams: 30, stable: true))))
        _ = await watcher.first { $0.topic == "plumscale/kitchen/right/state" }

        var stale = weightReport("left", grams: nil, stable: false)
        stale.state = "not-ready"
        stale.stale = true
        stale.reason = "DOUT never went low"
        bridge.link.send(.report(.weight(stale)))
        #expect(
            await watcher.first { $0.topic == "plumscale/kitchen/left/availability" && $0.text == "offline" } != nil,
            "the pulled pan goes offline: \(watcher.messages.map(\.topic))")
        #expect(
            watcher.messages(on: "plumscale/kitchen/right/availability").allSatisfy { $0.text == "online" },
            "the other pan stays available")
        let states = watcher.messages(on: "plumscale/kitchen/left/state").compactMap {
            JSONValue.parse($0.text)?["grams"]?.number
        }
        #expect(states == [152.3], "the state is neither replaced by nothing nor re-sent as current: \(states)")

        bridge.link.send(.report(.weight(weightReport("left", grams: 152.3, stable: true))))
        #expect(
            await watcher.first { $0.topic == "plumscale/kitchen/left/availability" && $0.text == "online" } != nil,
            "samples again: the pan is available again")
        watcher.stop()
        await bridge.stop()
    }
}
