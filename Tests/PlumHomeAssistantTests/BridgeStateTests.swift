import PlumMQTT
import PlumProtocol
import Testing

@testable import PlumHomeAssistant

/// The bridge's state as a value, with no actor, broker or daemon: what a press and the
/// daemon's answers decide, as the effects the actor then carries out.
@Suite("The bridge's state: a value that decides, and the effects it hands over")
struct BridgeStateTests {
    static func state() throws -> BridgeState {
        let settings = BridgeSettings(
            topics: BridgeTopics(identity: try ScaleIdentity(configured: "kitchen", machineID: nil)),
            policy: .init(division: DivisionRounding(grams: 0.1), delta: nil, heartbeatSeconds: 300, liveRate: 2),
            version: "0.1.0")
        var state = BridgeState(settings: settings, broker: "127.0.0.1:1883")
        state.handle(.connected(pans: ["left"]))
        _ = state.takeEffects()
        return state
    }

    static func questions(_ effects: BridgeEffects) -> [String] {
        effects.list.compactMap { effect in
            guard case .ask(let question) = effect else { return nil }
            return switch question {
            case .press(let action, let pan): "press \(action.rawValue) \(pan)"
            default: "\(question)"
            }
        }
    }

    static func press(_ state: inout BridgeState, _ action: ScaleAction) {
        let topic = state.settings.topics.command("left", action)
        state.handle(.message(MQTTMessage(topic: topic, text: "PRESS")))
    }

    @Test("presses on a pan with one in flight wait their turn, each action once, and are asked after the answer")
    func pressesWaitTheirTurn() throws {
        var state = try Self.state()
        Self.press(&state, .tare)
        #expect(Self.questions(state.takeEffects()) == ["press tare left"])
        Self.press(&state, .zero)
        Self.press(&state, .zero)
        Self.press(&state, .tare)
        #expect(Self.questions(state.takeEffects()).isEmpty, "nothing is asked while the tare is in flight")
        let done = CommandReply(command: "TARE", sensor: "left", ok: true)
        state.pressed(.tare, pan: "left", .success(done))
        let afterTare = state.takeEffects()
        #expect(Self.questions(afterTare) == ["press zero left"], "the zero pressed meanwhile, once")
        let topics = afterTare.list.compactMap { effect -> String? in
            if case .publish(let topic, _, _) = effect { topic } else { nil }
        }
        #expect(topics.contains(state.settings.topics.result("left")), "the tare's result is published: \(topics)")
        state.pressed(.zero, pan: "left", .failure(BridgeError("the daemon went away")))
        #expect(Self.questions(state.takeEffects()) == ["press tare left"])
        state.pressed(.tare, pan: "left", .success(done))
        #expect(Self.questions(state.takeEffects()).isEmpty, "the queue is empty")
    }

    @Test("a retained press is no press: nothing is asked, and the log says how to clear it")
    func retainedPressIgnored() throws {
        var state = try Self.state()
        let topic = state.settings.topics.command("left", .tare)
        state.handle(.message(MQTTMessage(topic: topic, text: "PRESS", retain: true)))
        let effects = state.takeEffects()
        #expect(Self.questions(effects).isEmpty)
        let warned = effects.list.contains { effect in
            if case .log(.warning, let line) = effect {
                line.contains("clear it with an empty retained message")
            } else {
                false
            }
        }
        #expect(warned)
    }
}
