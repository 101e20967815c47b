internal import Hummingbird
internal import ServiceLifecycle

/// The login sessions, in memory: what hummingbird-auth's session middleware keeps for each
/// cookie. A service of the application: every ``tidyInterval`` it removes the sessions whose
/// time is up, so cookies that are never used again (a browser closed, a guessing client's
/// logins) do not pile up for the life of the process.
///
/// Hummingbird's `MemoryPersistDriver` tidies the same way, but cannot say how many entries it
/// holds; this one can (``count``), so a test proves that the tidying runs.
package actor LoginSessionStore: PersistDriver {
    private struct Item {
        let value: any Codable & Sendable
        let expires: ContinuousClock.Instant?
    }

    private var items: [String: Item] = [:]
    /// What time it is for the sessions' lifetimes: the continuous clock, or a test's, so that a
    /// test makes a lifetime pass without waiting for it on a machine of unknown speed.
    private let now: @Sendable () -> ContinuousClock.Instant
    /// How often expired sessions are removed.
    package let tidyInterval: Duration

    package init(
        tidyInterval: Duration = .seconds(600),
        now: @escaping @Sendable () -> ContinuousClock.Instant = { ContinuousClock.now }
    ) {
        self.tidyInterval = tidyInterval
        self.now = now
    }

    /// The sessions held, expired ones not yet tidied away included.
    package var count: Int { items.count }

    package func create(key: String, value: some Codable & Sendable, expires: Duration?) async throws {
        guard items[key] == nil else { throw PersistError.duplicate }
        items[key] = Item(value: value, expires: expires.map { now().advanced(by: $0) })
    }

    package func set(key: String, value: some Codable & Sendable, expires: Duration?) async throws {
        let expiresAt = expires.map { now().advanced(by: $0) } ?? items[key]?.expires
        items[key] = Item(value: value, expires: expiresAt)
    }

    package func get<Object: Codable & Sendable>(key: String, as: Object.Type) async throws -> Object? {
        guard let item = items[key] else { return nil }
        if let expires = item.expires, now() > expires { return nil }
        guard let object = item.value as? Object else { throw PersistError.invalidConversion }
        return object
    }

    package func remove(key: String) async throws {
        items[key] = nil
    }

    /// Removes every session whose time is up.
    func tidy() {
        let now = self.now()
        items = items.filter { _, item in item.expires.map { $0 >= now } ?? true }
    }

    /// Tidies every ``tidyInterval`` until the application shuts down (a graceful shutdown
    /// cuts the wait short, or the application would wait for it).
    package func run() async throws {
        let interval = tidyInterval
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: interval) }
            } catch {
                return
            }
            tidy()
        }
    }
}
