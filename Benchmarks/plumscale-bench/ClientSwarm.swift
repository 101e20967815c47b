import CEpoll
import PlumClient
import PlumProtocol
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// Many clients of the daemon's socket, read by one thread with epoll. It still makes one
/// `recv` per client per report, as many system calls as the daemon's writes, so on a slow
/// host it can become the bottleneck; the latency command says when it did.
final class ClientSwarm {
    struct Client {
        var fd: Int32
        var buffer: [UInt8] = []
        var lines = 0
        var greeted = false
    }

    private(set) var clients: [Client] = []

    /// Lets this process (and the daemon it starts) open as many descriptors as it may.
    static func raiseDescriptorLimit() {
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        limit.rlim_cur = limit.rlim_max
        setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
    }

    /// Connects `count` clients to `path` (blocking connects, each one accepted in turn).
    func connect(_ count: Int, to path: String) throws {
        for _ in 0..<count {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                throw BenchError("socket: \(Errno.current); raise the descriptor limit (ulimit -n)")
            }
            let address: UnixSocketAddress
            do {
                address = try UnixSocketAddress(path: path)
            } catch {
                close(fd)
                throw BenchError(error.description)
            }
            guard address.withSockaddr({ Glibc.connect(fd, $0, $1) }) == 0 else {
                let reason = Errno.current.description
                close(fd)
                throw BenchError("connect \(path): \(reason)")
            }
            clients.append(Client(fd: fd))
        }
    }

    /// Connects `count` clients to 127.0.0.1:`port` over TCP.
    func connect(_ count: Int, loopbackPort port: UInt16) throws {
        for _ in 0..<count {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            guard fd >= 0 else {
                throw BenchError("socket: \(Errno.current); raise the descriptor limit (ulimit -n)")
            }
            let connected = InternetSocketAddress.loopback(port: port).withSockaddr { Glibc.connect(fd, $0, $1) == 0 }
            guard connected else {
                let reason = Errno.current.description
                close(fd)
                throw BenchError("connect 127.0.0.1:\(port): \(reason)")
            }
            clients.append(Client(fd: fd))
        }
    }

    /// Sends `request` to every client.
    func sendAll(_ request: Request) { sendAll(line: request.line) }

    /// Sends one line of text to every client.
    func sendAll(line: String) {
        let bytes = Array((line + "\n").utf8)
        for client in clients {
            _ = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Reads every client until `deadline` (monotonic seconds) or until `done` says so, handing
    /// each complete line to `handle` with the client's index and the wall-clock receipt time.
    ///
    /// It waits with epoll, whose cost follows the sockets that are ready rather than all of
    /// them; poll(2) scanned all of them on each wake-up. Most of the reader's time is still its
    /// `recv` calls: at 256 clients it went from about 40 % of a core to 36 %.
    func read(until deadline: Double, done: () -> Bool = { false }, _ handle: (Int, Substring, Double) -> Void) {
        let epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epoll >= 0 else { fatalError("epoll_create1: \(Errno.current)") }
        defer { close(epoll) }
        for index in clients.indices {
            var event = epoll_event()
            event.events = EPOLLIN.rawValue
            event.data.u64 = UInt64(index)
            epoll_ctl(epoll, EPOLL_CTL_ADD, clients[index].fd, &event)
        }
        var events = [epoll_event](repeating: epoll_event(), count: max(1, clients.count))
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Clock.now() < deadline && !done() {
            let ready = epoll_wait(epoll, &events, Int32(events.count), 50)
            if ready <= 0 { continue }
            let received = Clock.wall()
            for event in events[..<Int(ready)] {
                let index = Int(event.data.u64)
                let count = chunk.withUnsafeMutableBytes {
                    recv(clients[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT))
                }
                if count <= 0 {
                    // Closed by the daemon: stop watching it.
                    if count == 0 { epoll_ctl(epoll, EPOLL_CTL_DEL, clients[index].fd, nil) }
                    continue
                }
                clients[index].buffer += chunk[..<count]
                var start = 0
                while let newline = clients[index].buffer[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: clients[index].buffer[start..<newline], as: UTF8.self)[...]
                    clients[index].lines += 1
                    if !clients[index].greeted, LineFields.isClass(line, "VERSION") { clients[index].greeted = true }
                    handle(index, line, received)
                    start = newline + 1
                }
                // Usually every byte was a whole line: keep the storage, copy nothing.
                if start == clients[index].buffer.count {
                    clients[index].buffer.removeAll(keepingCapacity: true)
                } else {
                    clients[index].buffer.removeFirst(start)
                }
            }
        }
    }

    /// How many clients have had their VERSION greeting.
    var greeted: Int { clients.reduce(0) { $0 + ($1.greeted ? 1 : 0) } }

    func closeAll() {
        for client in clients { close(client.fd) }
        clients.removeAll()
    }

    deinit { closeAll() }
}

/// Light parsing of the daemon's lines: the benchmark reads hundreds of thousands of them, on
/// the cores the daemon needs, so it searches UTF-8 bytes rather than characters.
enum LineFields {
    /// True when the line is a report of `name` (`{"class":"name"`).
    static func isClass(_ line: Substring, _ name: String) -> Bool {
        line.utf8.starts(with: #"{"class":""#.utf8) && line.utf8.dropFirst(10).starts(with: name.utf8)
            && line.utf8.dropFirst(10 + name.utf8.count).first == UInt8(ascii: "\"")
    }

    /// The number after `"key":`.
    static func number(_ line: Substring, _ key: String) -> Double? {
        guard let start = valueStart(line, "\"\(key)\":") else { return nil }
        return Double(Substring(line.utf8[start...].prefix(while: isNumberByte)))
    }

    /// The string after `"key":"`.
    static func string(_ line: Substring, _ key: String) -> Substring? {
        guard let start = valueStart(line, "\"\(key)\":\"") else { return nil }
        return Substring(line.utf8[start...].prefix { $0 != UInt8(ascii: "\"") })
    }

    /// The numbers of the array after `"key":[`.
    static func numbers(_ line: Substring, _ key: String) -> [Double] {
        guard let start = valueStart(line, "\"\(key)\":[") else { return [] }
        return line.utf8[start...].prefix { $0 != UInt8(ascii: "]") }
            .split(separator: UInt8(ascii: ",")).compactMap { Double(Substring($0)) }
    }

    /// Where the value after `marker` starts. A plain byte search: the generic
    /// `firstRange(of:)` made the reader three times as costly (section 3 of PERFORMANCE.md).
    private static func valueStart(_ line: Substring, _ marker: String) -> Substring.UTF8View.Index? {
        var marker = marker
        let searched = marker.withUTF8 { pattern in
            line.utf8.withContiguousStorageIfAvailable { text -> Int? in
                guard let first = pattern.first, pattern.count <= text.count else { return nil }
                for start in 0...(text.count - pattern.count) where text[start] == first {
                    if (1..<pattern.count).allSatisfy({ text[start + $0] == pattern[$0] }) {
                        return start + pattern.count
                    }
                }
                return nil
            }
        }
        // A line is always contiguous UTF-8 here; the generic search is only the fallback.
        guard let searched else { return line.utf8.firstRange(of: marker.utf8)?.upperBound }
        return searched.map { line.utf8.index(line.utf8.startIndex, offsetBy: $0) }
    }

    private static func isNumberByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "+"), UInt8(ascii: "."),
            UInt8(ascii: "e"), UInt8(ascii: "E"):
            true
        default: false
        }
    }
}

/// Percentiles of a sample of values.
struct Percentiles {
    let sorted: [Double]
    init(_ values: [Double]) { sorted = values.sorted() }
    func value(_ fraction: Double) -> Double {
        guard !sorted.isEmpty else { return .nan }
        return sorted[min(sorted.count - 1, Int((Double(sorted.count - 1) * fraction).rounded()))]
    }
    var max: Double { sorted.last ?? .nan }
}
