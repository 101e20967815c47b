import Foundation
import PlumTestSupport

/// Another host on a real network: a network namespace joined to this one by a veth pair, this
/// side at 10.77.N.1 and the namespace at 10.77.N.2 (N from the process id, so two runs on one
/// machine do not clash). A program run in it reaches this machine over a non-loopback address.
///
/// ``remove()`` (and deinit, and a failed init) deletes the namespace, which deletes the pair.
final class NetworkNamespace: Sendable {
    let name: String
    let hostAddress: String
    let peerAddress: String
    private let hostInterface: String

    /// Why no namespace can be made here (not root, no `ip` or `curl`, or the kernel refuses),
    /// or nil when it can.
    static let unavailable: String? = {
        guard geteuid() == 0 else { return "needs root to make a network namespace" }
        guard let ip = ipPath else { return "needs ip (Debian package iproute2)" }
        guard ChildProcess.onPath("curl") else { return "needs curl to be the client on the other host" }
        let probe = "plumprobe\(getpid())"
        guard let made = try? ChildProcess.run(ip, ["netns", "add", probe]) as ChildProcess else {
            return "cannot run \(ip)"
        }
        guard made.status == 0 else { return "cannot make a network namespace: \(made.stderr)" }
        _ = try? ChildProcess.run(ip, ["netns", "delete", probe]) as ChildProcess
        return nil
    }()

    static let ipPath = ["/usr/sbin/ip", "/sbin/ip", "/usr/bin/ip", "/bin/ip"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    init() throws {
        let pid = getpid()
        let subnet = Int(pid % 250) + 1
        name = "plumweb\(pid)"
        hostInterface = "plw\(pid)h"
        hostAddress = "10.77.\(subnet).1"
        peerAddress = "10.77.\(subnet).2"
        let peerInterface = "plw\(pid)p"
        do {
            try ip(["netns", "add", name])
            try ip(["link", "add", hostInterface, "type", "veth", "peer", "name", peerInterface])
            try ip(["link", "set", peerInterface, "netns", name])
            try ip(["addr", "add", hostAddress + "/24", "dev", hostInterface])
            try ip(["link", "set", hostInterface, "up"])
            try ip(["-n", name, "addr", "add", peerAddress + "/24", "dev", peerInterface])
            try ip(["-n", name, "link", "set", peerInterface, "up"])
            try ip(["-n", name, "link", "set", "lo", "up"])
        } catch {
            remove()
            throw error
        }
    }

    /// Runs `command` inside the namespace and waits for it.
    func run(_ command: [String]) async throws -> ChildProcess {
        try await ChildProcess.run(Self.ipPath ?? "ip", ["netns", "exec", name] + command)
    }

    /// Deletes the namespace and the pair; harmless when they are already gone.
    func remove() {
        let ip = Self.ipPath ?? "ip"
        _ = try? ChildProcess.run(ip, ["netns", "delete", name]) as ChildProcess
        _ = try? ChildProcess.run(ip, ["link", "delete", hostInterface]) as ChildProcess
    }

    deinit { remove() }

    private func ip(_ arguments: [String]) throws {
        let result: ChildProcess = try ChildProcess.run(Self.ipPath ?? "ip", arguments)
        guard result.status == 0 else {
            throw FixtureError("ip \(arguments.joined(separator: " ")) failed (\(result.status)): \(result.stderr)")
        }
    }
}

extension ChildProcess {
    /// Whether `program` is an executable in a folder of PATH.
    static func onPath(_ program: String) -> Bool {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").contains { FileManager.default.isExecutableFile(atPath: "\($0)/\(program)") }
    }
}
