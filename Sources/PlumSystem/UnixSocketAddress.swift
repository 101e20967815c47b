#if canImport(Glibc)
    package import Glibc
#elseif canImport(Musl)
    package import Musl
#endif

/// A Unix socket address (`sockaddr_un`, unix(7)): the one place PlumScale fills one in, for
/// the daemon's listeners and probes, sd_notify, every client and the tests alike.
///
/// Two kinds of name fit in `sun_path`:
/// - a filesystem path, NUL-terminated, so at most ``maximumNameLength`` (107) bytes on Linux;
///   Linux would silently cut a longer one, so it is refused here with a ``UnixSocketAddressError``;
/// - an abstract name (written `@name`, as systemd's `$NOTIFY_SOCKET` does): a leading NUL, then
///   the name, whose length is counted rather than terminated; also at most 107 bytes.
package struct UnixSocketAddress: Sendable {
    /// The name as given: a path, or `@` and an abstract name.
    package let name: String
    /// True for an abstract-namespace address, which no file on disk stands for.
    package let isAbstract: Bool
    private let storage: sockaddr_un
    /// The length to pass to `bind(2)`, `connect(2)` or `sendto(2)`.
    package let length: socklen_t

    /// The most bytes a name may have: `sizeof(sockaddr_un.sun_path)` less the terminating NUL
    /// of a path (or the leading NUL of an abstract name); 107 on Linux.
    package static let maximumNameLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1

    /// The address of the socket file at `path` (absolute or relative, as `connect(2)` takes it).
    /// - Throws: ``UnixSocketAddressError`` when `path` is empty or longer than 107 bytes.
    package init(path: String) throws(UnixSocketAddressError) {
        try self.init(name: path, bytes: Array(path.utf8), abstract: false)
    }

    /// The address named by `text`: an abstract name when it starts with `@` (the `@` stands for
    /// the leading NUL), a filesystem path otherwise, as in systemd's `$NOTIFY_SOCKET`.
    /// - Throws: ``UnixSocketAddressError`` when the name is empty or longer than 107 bytes.
    package init(parsing text: String) throws(UnixSocketAddressError) {
        guard text.hasPrefix("@") else {
            try self.init(path: text)
            return
        }
        try self.init(name: text, bytes: Array(text.utf8.dropFirst()), abstract: true)
    }

    private init(name: String, bytes: [UInt8], abstract: Bool) throws(UnixSocketAddressError) {
        guard !bytes.isEmpty else { throw UnixSocketAddressError(name: name, reason: .empty) }
        guard bytes.count <= Self.maximumNameLength else {
            throw UnixSocketAddressError(name: name, reason: .tooLong(bytes: bytes.count))
        }
        guard !bytes.contains(0) || abstract else { throw UnixSocketAddressError(name: name, reason: .containsNUL) }
        self.name = name
        isAbstract = abstract
        var storage = sockaddr_un()
        storage.sun_family = sa_family_t(AF_UNIX)
        let start = abstract ? 1 : 0  // an abstract name's first byte stays NUL
        withUnsafeMutableBytes(of: &storage.sun_path) { raw in
            for (index, byte) in bytes.enumerated() { raw[start + index] = byte }
        }
        self.storage = storage
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \sockaddr_un.sun_path)!
        // A path's length counts its terminating NUL; an abstract name's counts its leading one.
        length = socklen_t(pathOffset + bytes.count + 1)
    }

    /// Calls `body` with the address as a `sockaddr` pointer and its length.
    package func withSockaddr<T>(_ body: (UnsafePointer<sockaddr>, socklen_t) throws -> T) rethrows -> T {
        try withUnsafePointer(to: storage) { pointer in
            try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { try body($0, length) }
        }
    }
}
