import Dispatch

#if canImport(Glibc)
import Glibc
#endif

/// Runs blocking work (a child process, a wait on a socket) on a Dispatch thread, off the Swift
/// concurrency pool. Tests run on that pool, which has as many threads as cores (two here): a
/// test blocking them for seconds would starve the in-process daemon tests that run meanwhile.
func offPool<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try body() }) }
    }
}

/// Runs the real `plumscale` binary as a child process and collects what it printed.
struct ChildProcess: Sendable {
    var status: Int32
    var stdout: String
    var stderr: String

    var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    /// The built `plumscale` next to this test bundle (SwiftPM puts products in one folder).
    static let plumscale: String = {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let exe = count > 0 ? String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        // .build/<triple>/debug/PlumScalePackageTests.xctest → .build/<triple>/debug/plumscale
        let folder = exe.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return folder + "/plumscale"
    }()

    /// Runs `plumscale` with `arguments`, waiting for it to exit.
    static func run(_ arguments: [String], environment: [String: String] = [:]) -> ChildProcess {
        runProgram(plumscale, arguments, environment: environment)
    }

    /// The same, waiting off the concurrency pool.
    static func run(_ arguments: [String], environment: [String: String] = [:]) async -> ChildProcess {
        await runProgram(plumscale, arguments, environment: environment)
    }

    /// ``runProgram(_:_:environment:)``, waiting off the concurrency pool.
    static func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) async -> ChildProcess {
        (try? await offPool { runProgram(program, arguments, environment: environment) as ChildProcess })
            ?? ChildProcess(status: -1, stdout: "", stderr: "could not run \(program)")
    }

    /// Runs `program` (a path, or a name found on PATH) with `arguments`, waiting for it to exit.
    static func runProgram(_ program: String, _ arguments: [String], environment: [String: String] = [:]) -> ChildProcess {
        let directory = temporaryDirectory()
        let out = "\(directory)/stdout", err = "\(directory)/stderr"
        var command = environment.map { "\($0.key)=\(shellQuote($0.value))" }.joined(separator: " ")
        command += " " + ([program] + arguments).map(shellQuote).joined(separator: " ")
        command += " </dev/null >\(out) 2>\(err)"
        let raw = system(command)
        let status = raw == -1 ? -1 : (raw >> 8) & 0xFF
        return ChildProcess(status: status, stdout: readFile(out), stderr: readFile(err))
    }
}

func shellQuote(_ text: String) -> String {
    "'" + text.replacingOccurrences(of: "'", with: "'\\''") + "'"
}

func temporaryDirectory() -> String {
    var template = Array("/tmp/plumscale-cli-XXXXXX".utf8CString)
    return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
}

func readFile(_ path: String) -> String {
    guard let file = fopen(path, "r") else { return "" }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 4096)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        bytes.append(contentsOf: buffer[0..<count])
        if count < buffer.count { break }
    }
    return String(decoding: bytes, as: UTF8.self)
}

func writeFile(_ path: String, _ text: String) {
    let file = fopen(path, "w")!
    fputs(text, file)
    fclose(file)
}

extension String {
    func replacingOccurrences(of target: String, with replacement: String) -> String {
        split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
}
