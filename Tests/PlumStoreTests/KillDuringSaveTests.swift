import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// A real process saving zero and tare without pause, killed with SIGKILL at arbitrary moments:
/// what it leaves is always one complete state it wrote, never half of one or a mix of two.
@Suite("Zero and tare store under kill -9")
struct KillDuringSaveTests {
    /// The writer built next to this test bundle (SwiftPM puts products in one folder).
    static let writer: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        return exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
            + "/plumstore-state-writer"
    }()

    /// Starts the writer, waits (deadline 10 s) until it has printed `saved N` for some N of at
    /// least `after`, kills it with SIGKILL at once and reaps it.
    /// - Returns: the last N it printed before the kill (read to the end of the pipe), or a
    ///   description of what went wrong.
    static func killWriter(directory: String, after: Int) -> Result<Int, TestFailure> {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: writer)
        process.arguments = [directory]
        let output = Pipe()
        process.standardOutput = output
        do { try process.run() } catch { return .failure(TestFailure("cannot start \(writer): \(error)")) }
        let fd = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(10)
        var pending = ""
        var last = 0
        while last < after {
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let remaining = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard remaining > 0, poll(&poller, 1, remaining) > 0 else {
                kill(process.processIdentifier, SIGKILL)
                process.waitUntilExit()
                return .failure(TestFailure("the writer printed no `saved \(after)` within 10 s (last: \(last))"))
            }
            var chunk = [UInt8](repeating: 0, count: 4096)
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else {
                process.waitUntilExit()
                return .failure(TestFailure("the writer exited early with status \(process.terminationStatus)"))
            }
            pending += String(decoding: chunk[0..<count], as: UTF8.self)
            while let newline = pending.firstIndex(of: "\n") {
                let line = pending[..<newline]
                pending = String(pending[pending.index(after: newline)...])
                if line.hasPrefix("saved "), let number = Int(line.dropFirst(6)) { last = number }
            }
        }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        // On a busy machine the writer runs ahead of this reader: what it printed before the
        // kill is still in the pipe, and the last of it is the save the file may hold.
        while true {
            var chunk = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 0) > 0 else { break }
            let count = read(fd, &chunk, chunk.count)
            guard count > 0 else { break }
            pending += String(decoding: chunk[0..<count], as: UTF8.self)
        }
        for line in pending.split(separator: "\n") where line.hasPrefix("saved ") {
            if let number = Int(line.dropFirst(6)) { last = number }
        }
        return .success(last)
    }

    struct TestFailure: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    @Test("killed at 12 moments while saving, it always leaves a whole state it wrote", .timeLimit(.minutes(2)))
    func killedMidSave() async throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let directory = temporary.path
        let sensor = SensorIdentity(id: "left", model: "hx711", gain: 128)
        let store = ZeroTareStore(directory: directory)
        var seen: Set<Int> = []
        for round in 0..<12 {
            // A different number of saves each round, so the kill lands at different steps.
            let printed = try await offPool { Self.killWriter(directory: directory, after: 3 + 11 * round) }.get()
            let state = try #require(try store.load(sensor).get(), "round \(round): no state after the kill")
            let number = Int(state.tare)
            // Printed only once its save returned, so that one at least is on disk; the kill
            // may have caught the next one after its rename.
            #expect(number >= printed && number <= printed + 1, "round \(round): printed \(printed), loaded \(number)")
            #expect(
                Double(number) == state.tare && state.zeroOffset == Double(number) / 1000, "a mixed state: \(state)")
            seen.insert(number - printed)
            // What the next start does: remove a temporary file the kill left, then load again.
            _ = try CalibrationStore(directory: directory).removeStaleTemporaryFiles().get()
            #expect(try store.load(sensor).get() == state)
        }
        #expect(!seen.isEmpty)
    }
}
