import Foundation
import PlumSystem

/// TCP ports on 127.0.0.1 for the real servers a test starts (a broker, a web server).
package enum LoopbackPort {
    /// A port nothing listens on now, below the kernel's ephemeral range (32768 and up on Linux):
    /// a port the kernel handed out could be given again to any outgoing connection, or to
    /// another test's broker while this one is down for a restart.
    /// - Throws: ``FixtureError`` when 200 random tries between 12000 and 30000 all failed.
    package static func free() throws -> Int {
        for _ in 0..<200 {
            let port = Int.random(in: 12_000..<30_000)
            let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
            defer { close(descriptor) }
            let address = InternetSocketAddress.loopback(port: UInt16(port))
            let bound = address.withSockaddr { bind(descriptor, $0, $1) == 0 }
            if bound { return port }
        }
        throw FixtureError("no free loopback port between 12000 and 30000")
    }

    /// True when something accepts connections on `127.0.0.1:port`.
    package static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        defer { close(descriptor) }
        return InternetSocketAddress.loopback(port: UInt16(port)).withSockaddr { connect(descriptor, $0, $1) == 0 }
    }
}
