import Foundation
import PlumSystem

/// A program run to completion as a child process, with what it printed.
package struct ChildProcess: Sendable {
    /// The exit status; a signal's number plus 128 when a signal ended it.
    package var status: Int32
    package var stdout: String
    package var stderr: String

    package var stdoutLines: [String] { stdout.split(separator: "\n").map(String.init) }

    package init(status: Int32, stdout: String, stderr: String) {
        self.status = status
        self.stdout = stdout
        self.stderr = stderr
    }

    /// Runs `program` (a path, or a name found on PATH) with `arguments` and `input` on its
    /// standard input, waiting for it to exit.
    package static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String = ""
    ) throws -> ChildProcess {
        let directory = try TemporaryDirectory(prefix: "plumrun")
        let stdin = try directory.write("stdin", input)
        let pid = try spawn(
            [program] + arguments, environment: environment, input: stdin, output: directory.file("stdout"),
            error: directory.file("stderr"))
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
        return ChildProcess(
            status: decode(raw), stdout: directory.read("stdout"), stderr: directory.read("stderr"))
    }

    /// The same, waiting off the concurrency pool.
    package static func run(
        _ program: String, _ arguments: [String], environment: [String: String] = [:], input: String = ""
    ) async throws -> ChildProcess {
        try await offPool { try run(program, arguments, environment: environment, input: input) as ChildProcess }
    }

    /// glibc's `posix_spawn_file_actions_addclosefrom_np` (2.34 and later), which the Glibc
    /// module does not import: looked up once by name.
    private static let addCloseFrom:
        (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32)? = {
            guard let symbol = dlsym(nil, "posix_spawn_file_actions_addclosefrom_np") else { return nil }
            return unsafeBitCast(
                symbol, to: (@convention(c) (UnsafeMutablePointer<posix_spawn_file_actions_t>, Int32) -> Int32).self)
        }()

    /// Starts `command` (its first element a path or a name on PATH) with the test's environment
    /// plus `environment`, standard input from `input` (default /dev/null), standard output to
    /// `output` and standard error to `error` (default: the same file as output).
    package static func spawn(
        _ command: [String], environment: [String: String] = [:], input: String = "/dev/null",
        output: String, error: String? = nil
    ) throws -> pid_t {
        try spawn(command, environment: environment) { actions in
            posix_spawn_file_actions_addopen(actions, 0, input, O_RDONLY, 0)
            posix_spawn_file_actions_addopen(actions, 1, output, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            if let error {
                posix_spawn_file_actions_addopen(actions, 2, error, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
            } else {
                posix_spawn_file_actions_adddup2(actions, 1, 2)
            }
        }
    }

    /// Starts `command` with `socket` as its standard input and output, as systemd starts a
    /// service per connection (`Accept=yes`, `StandardInput=socket`), and standard error
    /// appended to `errorLog`.
    package static func spawn(
        _ command: [String], environment: [String: String] = [:], socket: Int32, errorLog: String
    ) throws -> pid_t {
        try spawn(command, environment: environment) { actions in
            posix_spawn_file_actions_adddup2(actions, socket, 0)
            posix_spawn_file_actions_adddup2(actions, socket, 1)
            posix_spawn_file_actions_addopen(actions, 2, errorLog, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        }
    }

    /// Starts `command` with the standard streams `streams` sets up and no other descriptor.
    private static func spawn(
        _ command: [String], environment: [String: String],
        streams: (UnsafeMutablePointer<posix_spawn_file_actions_t>) -> Void
    ) throws -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        streams(&actions)
        // The child gets its three standard streams and nothing else. Tests run in parallel in one
        // process, and a descriptor some library opened without close-on-exec (a socket another
        // test's server accepted) would otherwise live on in a long-running child: that server
        // closing its end would then never reach its client as an end of file. Closed after the
        // streams are set up, which may take one of them from a descriptor above 2.
        if let closeFrom = Self.addCloseFrom { _ = closeFrom(&actions, 3) }
        var variables = ProcessInfo.processInfo.environment
        for (name, value) in environment { variables[name] = value }
        let argv = command.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        // Dispatch threads, which tests block on, run with most signals blocked; a child would
        // inherit that mask and never see the Ctrl-C a test sends it. It starts with an empty
        // mask and default dispositions, as from a shell.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var all = sigset_t()
        sigfillset(&all)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &all)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
        guard result == 0 else {
            throw FixtureError("starting \(command[0]): \(Errno(rawValue: result))")
        }
        return pid
    }

    /// An exit status as a shell reports it: the code, or 128 plus the signal that ended it.
    static func decode(_ raw: Int32) -> Int32 {
        let signal = raw & 0x7F
        return signal == 0 ? (raw >> 8) & 0xFF : 128 + signal
    }
}
