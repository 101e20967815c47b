import Foundation
import PlumSystem
import PlumTestSupport
import Testing

@testable import PlumClient

#if canImport(Glibc)
    import Glibc
#endif

@Suite("What a client says when it cannot talk to plumscaled")
struct ClientErrorTests {
    @Test("no daemon at the path: the path, how to start one, and how to point elsewhere")
    func noDaemon() throws {
        let directory = try TemporaryDirectory(prefix: "plumcl")
        let path = directory.file("absent.sock")
        let error = #expect(throws: ClientError.self, "connecting to \(path), where nothing listens") {
            try DaemonClient(socketPath: path)
        }
        #expect(error?.code == .noDaemon, "code was \(String(describing: error?.code))")
        let message = error?.message ?? ""
        let advice = ["is not running", "systemctl start plumscaled.socket", "plumscaled --simulate", "--socket"]
        for words in [path] + advice {
            #expect(message.contains(words), "the message should say \"\(words)\": \(message)")
        }
    }

    @Test("permission denied: the socket's group, and how to join it")
    func permissionDenied() {
        let error = ClientError.connecting("/run/plumscale/plumscale.sock", errno: EACCES)
        #expect(error.code == .permissionDenied, "code was \(error.code)")
        #expect(error.message.contains("permission denied opening /run/plumscale/plumscale.sock"), "\(error.message)")
        #expect(error.message.contains("sudo usermod -aG"), "the message should say how to join: \(error.message)")
        #expect(error.errno == EACCES, "errno was \(String(describing: error.errno))")
    }

    @Test("a path too long for a Unix socket address is refused before connecting")
    func pathTooLong() {
        let path = "/tmp/" + String(repeating: "x", count: 120) + ".sock"
        let error = #expect(throws: ClientError.self, "connecting to a 130-byte path") {
            try DaemonClient(socketPath: path)
        }
        #expect(error?.code == .invalidPath, "code was \(String(describing: error?.code))")
        #expect(error?.message.contains("shorter path") == true, "\(error?.message ?? "no error")")
    }

    @Test("a socket that does not greet like plumscaled is named as another program's")
    func notPlumscaled() async throws {
        let directory = try TemporaryDirectory(prefix: "plumcl")
        let listener = try GreetingListener(path: directory.file("other.sock"), greeting: "SSH-2.0-OpenSSH\n")
        let error = try await offPool { () -> ClientError? in
            do {
                _ = try DaemonClient(socketPath: listener.path, timeout: .seconds(10))
                return nil
            } catch let error as ClientError {
                return error
            }
        }
        #expect(error?.code == .notPlumscaled, "code was \(String(describing: error?.code))")
        #expect(error?.message.contains("another program's socket") == true, "\(error?.message ?? "no error")")
    }
}

/// A listening Unix socket that writes `greeting` to the first client and closes.
final class GreetingListener: Sendable {
    let path: String
    private let descriptor: Int32

    init(path: String, greeting: String) throws {
        self.path = path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        descriptor = fd
        let address = try UnixSocketAddress(path: path)
        let bound = address.withSockaddr { bind(fd, $0, $1) }
        try #require(bound == 0 && listen(fd, 4) == 0, "binding \(path): \(Errno.current)")
        Thread.detachNewThread {
            let client = accept(fd, nil, nil)
            guard client >= 0 else { return }
            _ = greeting.withCString { write(client, $0, strlen($0)) }
            close(client)
        }
    }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        close(descriptor)
    }
}
