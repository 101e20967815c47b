#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#endif

/// A Unix socket address (`sockaddr_un`, unix(7)) built from a path: the one place PlumScale
/// fills one in, for clients and listeners alike.
///
/// A path of `sizeof(sun_path)` bytes or more does not fit with its terminating NUL; Linux
/// would silently truncate it, so it is refused here instead. A leading NUL byte names an
/// address in the abstract namespace, whose length is counted, not NUL-terminated.
package struct UnixSocketAddress {
    package private(set) var storage = sockaddr_un()
    /// The length to pass to `bind(2)`, `connect(2)` or `sendto(2)`.
    package let length: socklen_t

    /// `sizeof(sockaddr_un.sun_path)`: 108 on Linux, including the terminating NUL.
    package static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path)

    /// The address of `path`; nil when the path does not fit in `sun_path`.
    package init?(path: String) {
        let bytes = Array(path.utf8)
        let abstract = bytes.first == 0
        guard !bytes.isEmpty, bytes.count < Self.maximumPathLength + (abstract ? 1 : 0) else { return nil }
        storage.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[index] = byte }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        length = socklen_t(pathOffset + bytes.count + (abstract ? 0 : 1))
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
