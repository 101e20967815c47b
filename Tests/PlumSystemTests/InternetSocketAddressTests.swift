import PlumSystem
import Testing

#if canImport(Glibc)
    import Glibc
#endif

@Suite("InternetSocketAddress, the one sockaddr_in/sockaddr_in6 builder")
struct InternetSocketAddressTests {
    @Test("the IPv4 loopback is 127.0.0.1 with the port in network byte order, as the C library spells it")
    func loopbackIPv4() throws {
        let address = InternetSocketAddress.loopback(port: 4242)
        let raw = try #require(address.ipv4)
        #expect(raw.sin_family == sa_family_t(AF_INET))
        // Network byte order, computed independently: 4242 = 0x1092, high byte first.
        #expect(withUnsafeBytes(of: raw.sin_port) { Array($0) } == [0x10, 0x92])
        #expect(withUnsafeBytes(of: raw.sin_addr) { Array($0) } == [127, 0, 0, 1])
        #expect(address.family == AF_INET && address.port == 4242 && address.isLoopback)
        #expect(address.description == "127.0.0.1:4242")
        #expect(address.withSockaddr { $1 } == socklen_t(MemoryLayout<sockaddr_in>.size))
    }

    @Test("the IPv6 loopback is ::1, printed in brackets")
    func loopbackIPv6() throws {
        let address = InternetSocketAddress.loopbackIPv6(port: 80)
        let raw = try #require(address.ipv6)
        #expect(withUnsafeBytes(of: raw.sin6_addr) { Array($0) } == [UInt8](repeating: 0, count: 15) + [1])
        #expect(address.family == AF_INET6 && address.isLoopback)
        #expect(address.description == "[::1]:80")
        #expect(address.withSockaddr { $1 } == socklen_t(MemoryLayout<sockaddr_in6>.size))
    }

    struct Parsed: Sendable, CustomTestStringConvertible {
        var host: String
        var description: String?
        var loopback: Bool
        var testDescription: String { host }
    }

    @Test(
        "numeric hosts parse to the address inet_ntop prints back; names and garbage do not parse",
        arguments: [
            Parsed(host: "127.0.0.1", description: "127.0.0.1:9", loopback: true),
            Parsed(host: "127.8.9.10", description: "127.8.9.10:9", loopback: true),
            Parsed(host: "192.0.2.7", description: "192.0.2.7:9", loopback: false),
            Parsed(host: "::1", description: "[::1]:9", loopback: true),
            Parsed(host: "[::1]", description: "[::1]:9", loopback: true),
            Parsed(host: "::ffff:127.0.0.1", description: "[::ffff:127.0.0.1]:9", loopback: true),
            Parsed(host: "2001:db8::1", description: "[2001:db8::1]:9", loopback: false),
            Parsed(host: "localhost", description: nil, loopback: false),
            Parsed(host: "256.1.1.1", description: nil, loopback: false),
            Parsed(host: "", description: nil, loopback: false)
        ])
    func parsing(_ test: Parsed) {
        let address = InternetSocketAddress(numericHost: test.host, port: 9)
        #expect(address?.description == test.description)
        if let address { #expect(address.isLoopback == test.loopback) }
    }

    @Test("a socket bound to the loopback's port 0 reads back, through getsockname, the port the kernel chose")
    func boundAndReadBack() throws {
        let descriptor = try Syscalls.streamSocket(family: AF_INET).get()
        defer { close(descriptor) }
        let bound = InternetSocketAddress.loopback(port: 0).withSockaddr { bind(descriptor, $0, $1) }
        try #require(bound == 0, "bind: \(Errno.current)")
        let local = try #require(try InternetSocketAddress.local(of: descriptor).get())
        #expect(local.port != 0)
        #expect(local.host == "127.0.0.1" && local.isLoopback)
    }

    @Test("a Unix socket has no internet address, and a closed descriptor is EBADF")
    func notInternet() throws {
        let unix = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(unix) }
        #expect(try InternetSocketAddress.local(of: unix).get() == nil)
        #expect(throws: Errno.badFileDescriptor) { try InternetSocketAddress.local(of: -1).get() }
    }
}
