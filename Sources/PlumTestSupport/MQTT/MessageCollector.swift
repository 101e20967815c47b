import PlumMQTT
import Synchronization

/// A subscriber on the real broker that keeps every message it receives, so a test can wait for
/// the one it expects (with a deadline) and then look at everything that came.
package final class MessageCollector: Sendable {
    package let client: MQTTClient
    private final class Store: Sendable {
        let received = Mutex<[MQTTMessage]>([])
        let connected = Mutex(false)
    }
    private let store = Store()
    private let task: Task<Void, Never>

    /// - Parameters:
    ///   - username: the broker user to connect as (with `password`); nil connects anonymously.
    package init(port: Int, username: String? = nil, password: String? = nil, subscribe filters: [String]) async throws
    {
        let client = try MQTTClient(
            MQTTConfiguration(host: "127.0.0.1", port: port, username: username, password: password))
        self.client = client
        let store = self.store
        task = Task {
            for await event in client.events {
                switch event {
                case .connected:
                    for filter in filters { _ = try? client.subscribe(filter, qos: .atLeastOnce) }
                case .subscribed:
                    store.connected.withLock { $0 = true }
                case .message(let message):
                    store.received.withLock { $0.append(message) }
                default: break
                }
            }
        }
        try client.start()
        try await waitFor("the collector to subscribe on 127.0.0.1:\(port)", timeout: .seconds(30)) {
            store.connected.withLock { $0 }
        }
    }

    package var messages: [MQTTMessage] { store.received.withLock { $0 } }

    package func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    /// Waits until a message satisfying `match` has arrived; returns it, or nil at the deadline.
    package func first(within seconds: Double = 10, where match: @Sendable (MQTTMessage) -> Bool) async -> MQTTMessage?
    {
        var found: MQTTMessage?
        _ = await eventually(within: .milliseconds(Int(seconds * 1000))) {
            found = store.received.withLock { $0.first(where: match) }
            return found != nil
        }
        return found
    }

    package func stop() {
        client.stop()
        task.cancel()
    }
}
