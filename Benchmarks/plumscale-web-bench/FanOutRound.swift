import HummingbirdWSClient
import Logging
import Synchronization

#if canImport(Glibc)
    import Glibc
#endif

/// N WebSocket clients on plumscale-web's `/ws`, as N browsers: each takes the wall clock as a
/// weight frame arrives and subtracts the reading's own time stamp (the sample's
/// CLOCK_REALTIME, set by plumscaled), so a latency spans daemon, client library, web service
/// and WebSocket.
final class FanOutRound: Sendable {
    struct Tally {
        /// Frames received while measuring, per client.
        var frames: [Int]
        /// Whether each client's handshake succeeded.
        var joined: [Bool]
        var latencies: [Double] = []
        var connected = 0
        var failures: [String] = []
    }

    let url: String
    let clients: Int
    private let measuring = Atomic<Bool>(false)
    private let stopping = Atomic<Bool>(false)
    private let tally: Mutex<Tally>

    init(url: String, clients: Int) {
        self.url = url
        self.clients = clients
        tally = Mutex(
            Tally(
                frames: Array(repeating: 0, count: clients), joined: Array(repeating: false, count: clients)))
    }

    var connected: Int { tally.withLock { $0.connected } }
    var failures: [String] { tally.withLock { $0.failures } }

    /// Starts or stops counting; frames before the start (warm-up) are not counted.
    func measure(_ on: Bool) { measuring.store(on, ordering: .sequentiallyConsistent) }

    /// Frames received per client that got in.
    var framesOfJoined: [Int] {
        tally.withLock { tally in zip(tally.frames, tally.joined).filter(\.1).map(\.0) }
    }

    /// The counts and latencies (sorted), once measuring has stopped.
    func result() -> Tally {
        tally.withLock { tally in
            tally.latencies.sort()
            return tally
        }
    }

    /// Makes each client close its WebSocket at its next frame.
    func stop() { stopping.store(true, ordering: .sequentiallyConsistent) }

    /// Runs every client until ``stop()``.
    func run() async {
        let logger = Logger(label: "plumscale-web-bench")
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<clients {
                group.addTask { await self.client(index, logger: logger) }
            }
        }
    }

    private func client(_ index: Int, logger: Logger) async {
        do {
            try await WebSocketClient.connect(url: url, logger: logger) { inbound, _, _ in
                self.tally.withLock {
                    $0.connected += 1
                    $0.joined[index] = true
                }
                for try await message in inbound.messages(maxSize: 1 << 16) {
                    let arrival = Self.wallClock()
                    if self.stopping.load(ordering: .relaxed) { break }
                    guard self.measuring.load(ordering: .relaxed), case .text(let text) = message,
                        let stamp = Self.weightTime(text)
                    else { continue }
                    let milliseconds = (arrival - stamp) * 1000
                    self.tally.withLock {
                        $0.frames[index] += 1
                        $0.latencies.append(milliseconds)
                    }
                }
            }
        } catch {
            tally.withLock { $0.failures.append("client \(index): \(error)") }
        }
    }

    static func wallClock() -> Double {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        return Double(now.tv_sec) + Double(now.tv_nsec) / 1e9
    }

    /// The `time` of a weight frame; nil for other frames. A scan, not a JSON decode: the
    /// benchmark's own CPU shares the cores with what it measures.
    static func weightTime(_ text: String) -> Double? {
        guard text.contains(#""type":"weight""#), let key = text.firstRange(of: #""time":"#) else { return nil }
        let number = text[key.upperBound...].prefix { $0.isNumber || $0 == "." || $0 == "-" || $0 == "e" }
        return Double(number)
    }
}
