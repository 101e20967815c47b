#if canImport(Glibc)
import Glibc
#endif

/// Many clients of the daemon's socket, read by one thread with poll(2): light enough that
/// the benchmark, not the daemon, is never the bottleneck at 1024 clients.
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
            guard fd >= 0 else { throw BenchError("socket: \(String(cString: strerror(errno))); raise the descriptor limit (ulimit -n)") }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let result = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard result == 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                throw BenchError("connect \(path): \(reason)")
            }
            clients.append(Client(fd: fd))
        }
    }

    /// Sends `line` to every client.
    func sendAll(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        for client in clients {
            _ = bytes.withUnsafeBytes { send(client.fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }
    }

    /// Reads every client until `deadline` (monotonic seconds) or until `done` says so, handing
    /// each complete line to `handle` with the client's index and the wall-clock receipt time.
    func read(until deadline: Double, done: () -> Bool = { false }, _ handle: (Int, Substring, Double) -> Void) {
        var descriptors = clients.map { pollfd(fd: $0.fd, events: Int16(POLLIN), revents: 0) }
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while Clock.now() < deadline && !done() {
            let ready = poll(&descriptors, nfds_t(descriptors.count), 50)
            if ready <= 0 { continue }
            let received = Clock.wall()
            for index in descriptors.indices where descriptors[index].revents != 0 {
                let count = chunk.withUnsafeMutableBytes { recv(descriptors[index].fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if count <= 0 {
                    if count == 0 { descriptors[index].events = 0 }  // closed by the daemon
                    continue
                }
                clients[index].buffer += chunk[..<count]
                var start = 0
                let bytes = clients[index].buffer
                while let newline = bytes[start...].firstIndex(of: UInt8(ascii: "\n")) {
                    let line = String(decoding: bytes[start..<newline], as: UTF8.self)
                    clients[index].lines += 1
                    if !clients[index].greeted, line.hasPrefix(#"{"class":"VERSION""#) { clients[index].greeted = true }
                    handle(index, line[...], received)
                    start = newline + 1
                }
                clients[index].buffer.removeFirst(start)
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

/// Light parsing of the daemon's lines: the benchmark reads hundreds of thousands of them.
enum LineFields {
    /// The number after `"key":`.
    static func number(_ line: Substring, _ key: String) -> Double? {
        guard let range = line.firstRange(of: "\"\(key)\":") else { return nil }
        return Double(line[range.upperBound...].prefix { "-+.0123456789e".contains($0) })
    }

    /// The string after `"key":"`.
    static func string(_ line: Substring, _ key: String) -> Substring? {
        guard let range = line.firstRange(of: "\"\(key)\":\"") else { return nil }
        return line[range.upperBound...].prefix { $0 != "\"" }
    }

    /// The numbers of the array after `"key":[`.
    static func numbers(_ line: Substring, _ key: String) -> [Double] {
        guard let range = line.firstRange(of: "\"\(key)\":[") else { return [] }
        return line[range.upperBound...].prefix { $0 != "]" }.split(separator: ",").compactMap { Double($0) }
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
