import PlumMQTT
import Synchronization

/// A subscriber on the real broker that keeps every message it receives, so a test can wait for
/// the one it expects (with a deadline) and then look at everything that came.
final class MessageCollector: Sendable {
    let client: MQTTClient
    private final class Store: Sendable {
        let received = Mutex<[MQTTMessage]>([])
        let connected = Mutex(false)
    }
    private let store = Store()
    private let task: Task<Void, Never>

    init(port: Int, subscribe filters: [String]) async throws {
        let client = try MQTTClient(MQTTConfiguration(host: "127.0.0.1", port: port))
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
        guard await waitFor(seconds: 30, { store.connected.withLock { $0 } }) else {
            throw SpawnError(message: "the collector never subscribed on port \(port)")
        }
    }

    var messages: [MQTTMessage] { store.received.withLock { $0 } }

    func messages(on topic: String) -> [MQTTMessage] { messages.filter { $0.topic == topic } }

    /// Waits until a message satisfying `match` has arrived; returns it, or nil at the deadline.
    func first(within seconds: Double = 10, where match: @Sendable (MQTTMessage) -> Bool) async -> MQTTMessage? {
        var found: MQTTMessage?
        _ = await waitFor(seconds: seconds) {
            found = store.received.withLock { $0.first(where: match) }
            return found != nil
        }
        return found
    }

    func stop() {
        client.stop()
        task.cancel()
    }
}

/// Polls `condition` on the concurrency pool, yielding between polls, until it holds or the
/// deadline passes.
func waitFor(seconds: Double, _ condition: () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .milliseconds(Int(seconds * 1000)))
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(20))
    }
    return condition()
}
