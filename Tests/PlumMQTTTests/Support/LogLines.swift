import Logging
import Synchronization

/// A logger whose lines a test reads back: what the bridge's journal would say.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger { Logger(label: "plumscale-mqtt.test") { _ in Handler(lines: self) } }

    var all: [String] { lines.withLock { $0 } }

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
