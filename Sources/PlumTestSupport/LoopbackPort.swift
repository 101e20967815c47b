import Foundation

/// TCP ports on 127.0.0.1 for the real servers a test starts (a broker, a web server).
public enum LoopbackPort {
    /// A port nothing listens on now, below the kernel's ephemeral range (32768 and up on Linux):
    /// a port the kernel handed out could be given again to any outgoing connection, or to
    /// another test's broker while this one is down for a restart.
    /// - Throws: ``FixtureError`` when 200 random tries between 12000 and 30000 all failed.
    public static func free() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 12_000..<30_000)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(descriptor) }
            let bound = withAddress(port) { bind(descriptor, $0, $1) == 0 }
            if bound { return port }
        }
        throw FixtureError("no free loopback port between 12000 and 30000")
    }

    /// True when something accepts connections on `127.0.0.1:port`.
    public static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        return withAddress(port) { connect(descriptor, $0, $1) == 0 }
    }

    private static func withAddress<T>(_ port: Int, _ body: (UnsafePointer<sockaddr>, socklen_t) -> T) -> T {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
    }
}
