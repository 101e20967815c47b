import Testing

@testable import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

@Suite("Unix socket addresses: paths and abstract names, and what does not fit")
struct UnixSocketAddressTests {
    /// `offsetof(struct sockaddr_un, sun_path)` on Linux: the two bytes of `sun_family`.
    static let pathOffset = 2

    @Test("the limit is sun_path's 108 bytes less one NUL, as unix(7) gives it")
    func limit() {
        #expect(UnixSocketAddress.maximumNameLength == 107, "Linux's sun_path holds 108 bytes")
    }

    @Test("a path's length counts its bytes and the terminating NUL")
    func pathLength() throws {
        let address = try UnixSocketAddress(path: "/run/plumscale/plumscale.sock")
        #expect(!address.isAbstract, "a path is not abstract")
        #expect(Int(address.length) == Self.pathOffset + 29 + 1, "length was \(address.length)")
        let family = address.withSockaddr { pointer, _ in pointer.pointee.sa_family }
        #expect(family == sa_family_t(AF_UNIX), "family was \(family)")
    }

    @Test("'@name' is an abstract name: a leading NUL, the length counts the name and that NUL, no terminator")
    func abstractName() throws {
        let address = try UnixSocketAddress(parsing: "@plumscale/notify")
        #expect(address.isAbstract, "'@' names the abstract namespace")
        #expect(Int(address.length) == Self.pathOffset + 1 + 16, "length was \(address.length)")
        let bytes = address.withSockaddr { pointer, length in
            UnsafeRawPointer(pointer).withMemoryRebound(to: UInt8.self, capacity: Int(length)) {
                Array(UnsafeBufferPointer(start: $0 + Self.pathOffset, count: Int(length) - Self.pathOffset))
            }
        }
        #expect(bytes == [0] + Array("plumscale/notify".utf8), "sun_path was \(bytes)")
    }

    @Test("without '@' parsing gives a path, and init(path:) never reads '@' as abstract")
    func parsingPath() throws {
        #expect(try !UnixSocketAddress(parsing: "/run/systemd/notify").isAbstract, "a path stays a path")
        #expect(try !UnixSocketAddress(path: "@relative").isAbstract, "a path starting with '@' is a file name")
    }

    @Test("107 bytes fit; 108 are refused with a message naming the path, its size and the 107-byte limit")
    func tooLong() throws {
        let fits = "/tmp/" + String(repeating: "x", count: 102)
        #expect(try UnixSocketAddress(path: fits).length == socklen_t(Self.pathOffset + 108), "107 bytes fit")
        let path = fits + "y"
        let error = #expect(throws: UnixSocketAddressError.self, "a 108-byte path") {
            try UnixSocketAddress(path: path)
        }
        #expect(error?.reason == .tooLong(bytes: 108), "reason was \(String(describing: error?.reason))")
        let message = error?.description ?? ""
        #expect(message.contains(path) && message.contains("108 bytes"), "names the path and its size: \(message)")
        #expect(message.contains("107 bytes") && message.contains("shorter path"), "names the limit: \(message)")
    }

    @Test("an abstract name of 107 bytes fits, 108 do not")
    func abstractTooLong() throws {
        let name = String(repeating: "n", count: 107)
        #expect(try UnixSocketAddress(parsing: "@" + name).isAbstract, "107 bytes after the NUL fit")
        let error = #expect(throws: UnixSocketAddressError.self, "a 108-byte abstract name") {
            try UnixSocketAddress(parsing: "@" + name + "n")
        }
        #expect(error?.description.contains("abstract socket name") == true, "\(String(describing: error))")
    }

    @Test("an empty path, a bare '@' and a NUL inside a path are refused, each saying why")
    func refusals() {
        let cases: [(String, UnixSocketAddressError.Reason)] = [
            ("", .empty), ("@", .empty), ("/tmp/a\0b", .containsNUL)
        ]
        for (text, reason) in cases {
            let error = #expect(throws: UnixSocketAddressError.self, "'\(text)' is no address") {
                try UnixSocketAddress(parsing: text)
            }
            #expect(error?.reason == reason, "'\(text)': reason was \(String(describing: error?.reason))")
        }
    }
}
