internal import CMosquitto
import Synchronization

/// An MQTT client over libmosquitto (Debian's libmosquitto-dev): MQTT 3.1.1 or 5, TLS,
/// credentials, a last will, publish and subscribe; libmosquitto writes every packet.
///
/// libmosquitto runs the connection on a thread of its own (`mosquitto_loop_start`), which also
/// reconnects with exponential back-off after the broker goes away. What happens there arrives
/// in ``events`` in order; `publish` and `subscribe` may be called from any task.
///
///     let client = try MQTTClient(MQTTConfiguration(host: "broker.local", will: offline))
///     try client.start()
///     for await event in client.events {
///         if event == .connected { try client.publish(online) }   // again after every reconnect
///     }
package final class MQTTClient: Sendable {
    /// What happened on the connection. Unbounded: its volume is this client's own
    /// subscriptions and acknowledgements, which the caller chooses.
    package let events: AsyncStream<MQTTEvent>
    package let configuration: MQTTConfiguration
    private let handle: MosquittoHandle
    /// Retries of a first connection that failed: libmosquitto's thread reconnects only a
    /// connection that once existed (`mosquitto_loop_forever` returns at once without a socket).
    private let firstConnect = Mutex<Task<Void, Never>?>(nil)

    package init(_ configuration: MQTTConfiguration) throws(MQTTError) {
        self.configuration = configuration
        let (events, continuation) = AsyncStream.makeStream(of: MQTTEvent.self, bufferingPolicy: .unbounded)
        self.events = events
        handle = try MosquittoHandle(
            configuration, sink: EventSink(continuation: continuation, protocolVersion: configuration.protocolVersion))
    }

    /// Starts connecting and the network thread. A broker that cannot be reached now is not an
    /// error: ``MQTTEvent/unreachable(reason:)`` says why, and the thread keeps retrying.
    /// - Throws: an ``MQTTError`` for settings libmosquitto refuses, or when the thread cannot start.
    package func start() throws(MQTTError) {
        switch connect() {
        case .success:
            try startThread()
        case .failure(let error) where error.codeName == "MOSQ_ERR_INVAL":
            throw error
        case .failure(let error):
            handle.sink.continuation.yield(.unreachable(reason: error.description))
            let delays = configuration.reconnectDelay
            firstConnect.withLock {
                $0 = Task { [self] in
                    var delay = max(1, delays.lowerBound)
                    while !Task.isCancelled {
                        try? await Task.sleep(for: .seconds(delay))
                        if Task.isCancelled { return }
                        if case .success = connect() {
                            if case .failure(let error) = MosquittoCall.check(
                                mosquitto_loop_start(handle.mosq), "starting the MQTT network thread")
                            {
                                handle.sink.continuation.yield(.unreachable(reason: error.description))
                            }
                            return
                        }
                        delay = min(delay * 2, max(delay, delays.upperBound))
                    }
                }
            }
        }
    }

    private func connect() -> Result<Void, MQTTError> {
        MosquittoCall.check(
            mosquitto_connect_async(
                handle.mosq, configuration.host, Int32(configuration.port),
                Int32(configuration.keepAlive)),
            "connecting to \(configuration.endpoint)")
    }

    private func startThread() throws(MQTTError) {
        try MosquittoCall.check(mosquitto_loop_start(handle.mosq), "starting the MQTT network thread").get()
    }

    /// Publishes a message; returns libmosquitto's message id (see ``MQTTEvent/published(messageID:)``).
    /// - Throws: ``MQTTError/isNotConnected`` while the broker is away; publish again after the
    ///   next ``MQTTEvent/connected``.
    @discardableResult
    package func publish(_ message: MQTTMessage) throws(MQTTError) -> Int {
        var messageID: Int32 = 0
        let result = message.payload.withUnsafeBytes { bytes in
            mosquitto_publish(
                handle.mosq, &messageID, message.topic, Int32(bytes.count), bytes.baseAddress,
                Int32(message.qos.rawValue), message.retain)
        }
        try MosquittoCall.check(result, "publishing to \(message.topic)").get()
        return Int(messageID)
    }

    /// Subscribes to a topic filter (`+` and `#` wildcards allowed); returns the message id that
    /// ``MQTTEvent/subscribed(messageID:grantedQoS:)`` will carry.
    @discardableResult
    package func subscribe(_ filter: String, qos: MQTTQoS = .atMostOnce) throws(MQTTError) -> Int {
        var messageID: Int32 = 0
        try MosquittoCall.check(
            mosquitto_subscribe(handle.mosq, &messageID, filter, Int32(qos.rawValue)), "subscribing to \(filter)"
        ).get()
        return Int(messageID)
    }

    package func unsubscribe(_ filter: String) throws(MQTTError) {
        try MosquittoCall.check(
            mosquitto_unsubscribe(handle.mosq, nil, filter), "unsubscribing from \(filter)"
        ).get()
    }

    /// Disconnects cleanly (the broker does not publish the will), stops the network thread and
    /// ends ``events``.
    package func stop() {
        firstConnect.withLock { $0?.cancel() }
        _ = mosquitto_disconnect(handle.mosq)
        mosquitto_loop_stop(handle.mosq, false)
        handle.sink.continuation.finish()
    }
}
