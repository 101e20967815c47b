import Logging
import Synchronization

/// A logger whose lines a test reads back: what a service's journal would say, "level: message"
/// a line (the web service's failed logins, the bridge's refusals).
package final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    package init() {}

    /// A logger writing here, at info and above.
    package func logger(label: String = "plumscale.test") -> Logger {
        Logger(label: label) { _ in Handler(lines: self) }
    }

    /// Every line so far, oldest first.
    package var all: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let lines: LogLines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) { lines.append("\(event.level): \(event.message)") }
    }
}
