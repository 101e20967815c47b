/// The weighing sessions a daemon keeps: the running one, if any, and the last stopped ones.
///
/// A value, so the station changes it in one place and hands it to PlumStore's `SessionStore` to save.
public struct SessionBook: Hashable, Sendable, Codable {
    /// A session with the sensor whose items it records.
    public struct Entry: Hashable, Sendable, Codable {
        public var sensor: String
        public var session: WeighingSession

        public init(sensor: String, session: WeighingSession) {
            self.sensor = sensor
            self.session = session
        }
    }

    /// How many stopped sessions are kept; the oldest goes when one more is stopped. A session
    /// of a crate is a few hundred items, so 50 of them are a file of a few hundred kB, written
    /// after every item of the running one: more would make each save slow on an SD card.
    public static let keptStopped = 50

    /// The session that records items now.
    public var running: Entry?
    /// Stopped sessions, oldest first, at most ``keptStopped``.
    public private(set) var stopped: [Entry] = []

    public init(running: Entry? = nil, stopped: [Entry] = []) {
        self.running = running
        self.stopped = Array(stopped.suffix(Self.keptStopped))
    }

    /// Stops the running session at `timestamp` and keeps it, dropping the oldest beyond
    /// ``keptStopped``; the stopped entry, or nil when none ran.
    public mutating func stopRunning(at timestamp: String) -> Entry? {
        guard var entry = running else { return nil }
        entry.session.stop(at: timestamp)
        running = nil
        stopped.append(entry)
        if stopped.count > Self.keptStopped { stopped.removeFirst(stopped.count - Self.keptStopped) }
        return entry
    }

    /// The running or the latest stopped session called `name`.
    public func entry(named name: String) -> Entry? {
        if let running, running.session.name == name { return running }
        return stopped.last { $0.session.name == name }
    }
}
