import Logging
import Synchronization

/// A logger whose lines a test can read back: what the administrator (or fail2ban) would see.
final class LogCapture: Sendable {
    private let lines = Mutex<[String]>([])

    var logger: Logger {
        Logger(label: "plumscale-web.test") { _ in Handler(capture: self) }
    }

    var text: [String] { lines.withLock { $0 } }

    fileprivate func append(_ line: String) { lines.withLock { $0.append(line) } }

    private struct Handler: LogHandler {
        let capture: LogCapture
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .info

        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            capture.append("\(event.level): \(event.message)")
        }
    }
}
