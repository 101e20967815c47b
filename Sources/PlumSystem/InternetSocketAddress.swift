#if canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#endif

/// An IPv4 or IPv6 socket address (`sockaddr_in`, `sockaddr_in6`; ip(7), ipv6(7)): the one place
/// PlumScale fills one in or reads one back, for the daemon's TCP listeners, the benchmarks and
/// the tests alike. Only numeric hosts: nothing here asks a resolver.
package struct InternetSocketAddress: Sendable, CustomStringConvertible {
    private enum Storage: Sendable {
        case v4(sockaddr_in)
        case v6(sockaddr_in6)
    }

    private let storage: Storage

    /// `127.0.0.1:port`.
    package static func loopback(port: UInt16) -> InternetSocketAddress {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(port.bigEndian)
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        return InternetSocketAddress(storage: .v4(address))
    }

    /// `[::1]:port`.
    package static func loopbackIPv6(port: UInt16) -> InternetSocketAddress {
        var address = sockaddr_in6()
        address.sin6_family = sa_family_t(AF_INET6)
        address.sin6_port = in_port_t(port.bigEndian)
        withUnsafeMutableBytes(of: &address.sin6_addr) { $0[15] = 1 }
        return InternetSocketAddress(storage: .v6(address))
    }

    /// The address of a numeric host (`192.0.2.1`, `::1` or `[::1]`) and port; nil when `host`
    /// is neither an IPv4 nor an IPv6 address (`inet_pton(3)`).
    package init?(numericHost host: String, port: UInt16) {
        var address4 = sockaddr_in()
        if inet_pton(AF_INET, host, &address4.sin_addr) == 1 {
            address4.sin_family = sa_family_t(AF_INET)
            address4.sin_port = in_port_t(port.bigEndian)
            storage = .v4(address4)
            return
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        var address6 = sockaddr_in6()
        guard inet_pton(AF_INET6, bare, &address6.sin6_addr) == 1 else { return nil }
        address6.sin6_family = sa_family_t(AF_INET6)
        address6.sin6_port = in_port_t(port.bigEndian)
        storage = .v6(address6)
    }

    /// The IPv4 or IPv6 address in `storage`, as `getsockname(2)` or `accept(2)` fill it in; nil
    /// for another family (a Unix socket).
    package init?(_ storage: sockaddr_storage) {
        switch CInt(storage.ss_family) {
        case AF_INET: self.storage = .v4(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in.self) })
        case AF_INET6: self.storage = .v6(withUnsafeBytes(of: storage) { $0.load(as: sockaddr_in6.self) })
        default: return nil
        }
    }

    private init(storage: Storage) { self.storage = storage }

    /// The address `descriptor` is bound to (`getsockname(2)`): nil inside for a socket that is
    /// not IPv4 or IPv6.
    package static func local(of descriptor: CInt) -> Result<InternetSocketAddress?, Errno> {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let named = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard named == 0 else { return .failure(.current) }
        return .success(InternetSocketAddress(storage))
    }

    /// `AF_INET` or `AF_INET6`, for `socket(2)`.
    package var family: CInt {
        switch storage {
        case .v4: AF_INET
        case .v6: AF_INET6
        }
    }

    package var port: UInt16 {
        switch storage {
        case .v4(let address): UInt16(bigEndian: address.sin_port)
        case .v6(let address): UInt16(bigEndian: address.sin6_port)
        }
    }

    /// True for 127.0.0.0/8, `::1` and IPv4-mapped 127.0.0.0/8: addresses no other machine reaches.
    package var isLoopback: Bool {
        switch storage {
        case .v4(let address):
            return UInt32(bigEndian: address.sin_addr.s_addr) >> 24 == 127
        case .v6(let address):
            let bytes = withUnsafeBytes(of: address.sin6_addr) { Array($0) }
            let isLoopback = bytes == [UInt8](repeating: 0, count: 15) + [1]
            let isMappedLoopback = bytes.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] && bytes[12] == 127
            return isLoopback || isMappedLoopback
        }
    }

    /// The host as `inet_ntop(3)` writes it: `127.0.0.1`, `::1`.
    package var host: String {
        var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
        switch storage {
        case .v4(var address): inet_ntop(AF_INET, &address.sin_addr, &buffer, socklen_t(buffer.count))
        case .v6(var address): inet_ntop(AF_INET6, &address.sin6_addr, &buffer, socklen_t(buffer.count))
        }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// `127.0.0.1:4242` or `[::1]:4242`.
    package var description: String {
        switch storage {
        case .v4: "\(host):\(port)"
        case .v6: "[\(host)]:\(port)"
        }
    }

    /// The IPv4 address as the C library spells it, for APIs that take one (NIO's `SocketAddress`).
    package var ipv4: sockaddr_in? {
        if case .v4(let address) = storage { return address }
        return nil
    }

    /// The IPv6 address as the C library spells it.
    package var ipv6: sockaddr_in6? {
        if case .v6(let address) = storage { return address }
        return nil
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length, for `bind(2)`,
    /// `connect(2)` and `sendto(2)`.
    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        switch storage {
        case .v4(let address): try Self.withSockaddr(address, body)
        case .v6(let address): try Self.withSockaddr(address, body)
        }
    }

    private static func withSockaddr<Address, T>(
        _ address: Address, _ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T
    ) rethrows -> T {
        try withUnsafePointer(to: address) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                try body($0, socklen_t(MemoryLayout<Address>.size))
            }
        }
    }
}
