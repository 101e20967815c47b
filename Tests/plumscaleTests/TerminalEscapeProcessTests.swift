import Foundation
import PlumTestSupport
import PlumTestThreads
import Testing

/// What a daemon sends reaches the terminal of whoever runs the CLI: an escape sequence in a
/// service's version or a session's name is printed escaped, never raw, even from a daemon
/// (an older one, or a stand-in here) that let it through.
@Suite("plumscale prints text from the wire escaped", .tags(.process), .timeLimit(.minutes(2)), .ownThreads)
struct TerminalEscapeProcessTests {
    /// Bytes a terminal would act on: ESC, BEL, CR, CSI (C1) and a bidi override, in UTF-8.
    static let raw: [[UInt8]] = [[0x1B], [0x07], [0x0D], [0xC2, 0x9B], [0xE2, 0x80, 0xAE]]

    static func containsRaw(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return raw.contains { needle in
            bytes.indices.contains { bytes[$0...].starts(with: needle) }
        }
    }

    @Test("status and session list print a hostile version, detail and session name escaped")
    func hostileText() async throws {
        let directory = try TemporaryDirectory(prefix: "plumescape")
        let socket = directory.file("fake.sock")
        let daemon = try FakeDaemon(path: socket, sensors: ["left"])
        defer { daemon.stop() }
        let hostile = #"1.0\u001b]0;owned\u0007\r\u009b2J\u202e"#
        let devices =
            daemon.devicesLine.dropLast() + #","clients":[{"name":"plumscale-mqtt","connected":true,"#
            + #""version":"\#(hostile)","connections":1,"detail":{"error":"\#(hostile)"}}]}"#
        daemon.respond { request in
            switch request {
            case .devices: [String(devices)]
            case .session:
                [
                    #"{"class":"SESSION","action":"list","ok":true,"message":"1 session","sessions":[{"name":"#
                        + #""crate\u001b[2J\u202e","sensor":"left","started":"2026-09-02T08:15:00Z","stopped":null,"#
                        + #""division":0.1,"count":0,"total":0,"classes":[],"unclassified":0}]}"#
                ]
            default: nil
            }
        }
        let status = await ChildProcess.plumscale(["status", "--socket", socket])
        #expect(status.status == 0, "stderr: \(status.stderr)")
        let service = try #require(status.stdout.split(separator: "\n").first { $0.contains("plumscale-mqtt") })
        #expect(!Self.containsRaw(status.stdout), "no raw control reaches the terminal: \(Array(status.stdout.utf8))")
        #expect(
            service.contains(#"plumscale-mqtt 1.0\u001b]0;owned\u0007\u000d\u009b2J\u202e: connected"#), "\(service)")

        let sessions = await ChildProcess.plumscale(["session", "list", "--socket", socket])
        #expect(sessions.status == 0, "stderr: \(sessions.stderr)")
        #expect(!Self.containsRaw(sessions.stdout), "\(Array(sessions.stdout.utf8))")
        #expect(sessions.stdout.contains(#"crate\u001b[2J\u202e"#), "\(sessions.stdout)")
    }
}
