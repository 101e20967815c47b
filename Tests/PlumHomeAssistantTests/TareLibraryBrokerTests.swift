import PlumHomeAssistant
import PlumMQTT
import PlumProtocol
import PlumTestSupport
import Testing

/// The device configs the bridge sends as the daemon's named tares change, on a real mosquitto
/// broker with the daemon scripted. Home Assistant removes a component a device config leaves out
/// and re-creates one whose platform changed, and a re-created entity is unavailable until its
/// availability arrives again, so a choice made on it then is dropped: a `TARES` change may only
/// add the selects or change their options, with the session entities of protocol 1.5 kept.
@Suite("named tares in the device config on a real broker, the daemon scripted", .timeLimit(.minutes(2)))
struct TareLibraryBrokerTests {
    static let device = "homeassistant/device/plumscale_kitchen/config"

    static func library(_ names: [String]) -> DaemonEvent {
        .report(.tares(TareLibraryReport(tares: names.map { NamedTare(name: $0, grams: 7.5) }, changed: names.last)))
    }

    @Test("a TARES change adds the selects, the next one changes their options; no config drops or flips a component")
    func taresChangeKeepsEveryComponent() async throws {
        let broker = try await MosquittoBroker.start()
        let bridge = try BridgeBrokerTests.Running(port: broker.port)
        bridge.link.answerSettings { ItemSessionBrokerTests.daemon($0) }
        bridge.link.send(.connected(pans: ["left", "right"]))
        let watcher = try await MessageCollector(port: broker.port, subscribe: [Self.device])
        #expect(await watcher.first { $0.topic == Self.device } != nil, "the first device config")

        bridge.link.send(Self.library(["cup"]))
        #expect(await eventually(within: .seconds(10)) { watcher.messages(on: Self.device).count >= 2 })
        bridge.link.send(Self.library(["bowl", "cup"]))
        #expect(await eventually(within: .seconds(10)) { watcher.messages(on: Self.device).count >= 3 })
        watcher.stop()
        await bridge.stop()

        let configs = watcher.messages(on: Self.device).compactMap {
            DeviceConfigReader($0.payload, topic: Self.device)
        }
        try #require(configs.count >= 3, "three device configs: \(configs.count)")
        #expect(configs.allSatisfy { $0.removed.isEmpty }, "no component sent to be removed")
        for (before, after) in zip(configs, configs.dropFirst()) {
            let platforms = { (reader: DeviceConfigReader) in reader.components.mapValues { $0["p"]?.string ?? "?" } }
            let kept = platforms(after).filter { platforms(before).keys.contains($0.key) }
            #expect(kept == platforms(before), "every component kept on its platform")
        }
        let added = Set(configs[1].components.keys).subtracting(configs[0].components.keys)
        #expect(added == ["left_named_tare", "right_named_tare"], "the first tare adds the selects only: \(added)")
        #expect(configs[0].components.keys.contains("session_stop"), "the session entities from the first config")
        let options = configs.last?.components["right_named_tare"]?["options"]?.array?.compactMap(\.string)
        #expect(options == ["(none)", "bowl", "cup"], "the select's options follow the library")
    }
}
