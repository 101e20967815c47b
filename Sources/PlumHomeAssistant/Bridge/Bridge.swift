package import Logging
package import PlumMQTT
internal import PlumProtocol

/// plumscaled to MQTT and Home Assistant: reports from the daemon become discovery configs,
/// states and live readings on the broker; Home Assistant's buttons become tare and zero.
///
/// An actor that only keeps order: each event of the broker or the daemon, each second's tick
/// and each answer of the daemon goes, one at a time, to the bridge's state (``BridgeState``, a
/// value that decides), and what it decided is carried out here, in order (``BridgeEffects``):
/// messages and subscriptions on the broker, log lines, and questions for the daemon, asked
/// while the bridge goes on. Both sides come and go on their own: the broker (libmosquitto
/// reconnects with back-off) and the daemon (the link reconnects); each change is logged once,
/// and everything retained is published again after a reconnect.
package actor Bridge<Link: ScaleDaemonLink> {
    let mqtt: MQTTClient
    let link: Link
    let logger: Logger
    var state: BridgeState
    private let started = ContinuousClock.now

    package init(mqtt: MQTTClient, link: Link, settings: BridgeSettings, logger: Logger) {
        self.mqtt = mqtt
        self.link = link
        self.logger = logger
        state = BridgeState(settings: settings, broker: mqtt.configuration.endpoint)
    }

    /// Runs until the task is cancelled; then publishes `offline` and disconnects cleanly.
    /// - Throws: an ``MQTTError`` when the MQTT client cannot start at all.
    package func run() async throws {
        try mqtt.start()
        await withTaskGroup(of: Void.self) { group in
            group.addTask { for await event in self.mqtt.events { await self.decide { $0.handle(event) } } }
            group.addTask { for await event in self.link.events() { await self.decide { $0.handle(event) } } }
            group.addTask {
                while !Task.isCancelled {
                    try? await Task.sleep(for: .seconds(1))
                    await self.decide { $0.tick() }
                }
            }
            await group.next()
            group.cancelAll()
        }
        publish(state.settings.topics.availability, Array("offline".utf8), retain: true)
        mqtt.stop()
        logger.info("stopped; published offline")
    }

    /// Runs `body` on the state at this moment and carries out what it decided.
    func decide(_ body: (inout BridgeState) -> Void) {
        let elapsed = ContinuousClock.now - started
        state.at(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
        body(&state)
        for effect in state.takeEffects().list {
            switch effect {
            case .log(let level, let message): logger.log(level: level, "\(message)")
            case .publish(let topic, let payload, let retain): publish(topic, payload, retain: retain)
            case .subscribe(let filter):
                do { try mqtt.subscribe(filter, qos: .atLeastOnce) } catch { logger.warning("\(error)") }
            case .unsubscribe(let filter): try? mqtt.unsubscribe(filter)
            case .brokerChanged(let problem): link.brokerChanged(problem: problem)
            case .ask(let question): Task { await self.answer(question) }
            }
        }
    }

    /// Asks the daemon `question` while the bridge goes on; its answer is taken in a turn of its
    /// own, in order with the reports.
    private func answer(_ question: DaemonQuestion) async {
        switch question {
        case .press(let action, let pan):
            let answer = await result { try await self.link.perform(action, pan: pan) }
            decide { $0.pressed(action, pan: pan, answer) }
        case .devices:
            let answer = await result { try await self.link.devices() }
            decide { $0.devicesAnswered(answer) }
        case .tares:
            let answer = await result { try await self.link.settings(.tares(.list)) }
            decide { $0.taresAnswered(answer) }
        case .session:
            let answer = await result { try await self.link.settings(.session(SessionRequest(action: .show))) }
            decide { $0.sessionAnswered(answer) }
        case .sessionCommand(let request):
            let answer = await result { try await self.link.settings(.session(request)) }
            decide { $0.sessionCommandAnswered(request, answer) }
        case .setting(let request, let pan):
            let answer = await result { try await self.link.settings(request) }
            decide { $0.settingAnswered(request, pan: pan, answer) }
        }
    }

    private func result<T: Sendable>(_ body: () async throws -> T) async -> Result<T, BridgeError> {
        do { return .success(try await body()) } catch { return .failure(BridgeError("\(error)")) }
    }

    private func publish(_ topic: String, _ payload: [UInt8], retain: Bool) {
        do {
            try mqtt.publish(MQTTMessage(topic: topic, payload: payload, qos: state.settings.qos, retain: retain))
        } catch  where error.isNotConnected {
            // Published again, retained state first, after the next connect.
        } catch {
            logger.warning("\(error)")
        }
    }
}
