#if canImport(Glibc)
    import Glibc
#endif

/// A long-running child process (a broker, a daemon, a bridge) whose output goes to files,
/// killed when the test is done with it.
final class ChildProcess: @unchecked Sendable {
    // @unchecked Sendable: `pid` is set once in init; `exited` is only touched by the test that
    // owns the process, from one task at a time.
    let pid: pid_t
    let command: [String]
    let stdoutPath: String
    let stderrPath: String
    private var exited = false

    init(_ command: [String], directory: String, name: String, environment: [String: String] = [:]) throws {
        self.command = command
        stdoutPath = "\(directory)/\(name).out"
        stderrPath = "\(directory)/\(name).err"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdoutPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        var env: [String] = []
        var pointer = environ
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let name = text.split(separator: "=").first, environment[String(name)] != nil {
            } else {
                env.append(text)
            }
            pointer += 1
        }
        env += environment.map { "\($0.key)=\($0.value)" }
        let argv = command.map { strdup($0) } + [nil]
        let envp = env.map { strdup($0) } + [nil]
        defer { (argv + envp).forEach { free($0) } }
        // A Dispatch or concurrency-pool thread blocks signals, and a child inherits the mask:
        // without this, a broker started from one would never see SIGTERM.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var noSignals = sigset_t()
        var defaults = sigset_t()
        sigemptyset(&noSignals)
        sigemptyset(&defaults)
        for number in [SIGTERM, SIGINT, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &noSignals)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        var pid: pid_t = 0
        let status = posix_spawnp(&pid, command[0], &actions, &attributes, argv, envp)
        guard status == 0 else {
            throw SpawnError(message: "posix_spawn \(command[0]): \(String(cString: strerror(status)))")
        }
        self.pid = pid
    }

    var stdout: String { readFile(stdoutPath) }
    var stderr: String { readFile(stderrPath) }

    /// Sends `signal` and reaps the process; returns its wait status.
    @discardableResult
    func stop(_ signal: Int32 = SIGTERM) -> Int32 {
        guard !exited else { return 0 }
        exited = true
        kill(pid, signal)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        return status
    }

    /// True while the process has not exited (reaping it if it has).
    var isRunning: Bool {
        guard !exited else { return false }
        var status: Int32 = 0
        if waitpid(pid, &status, WNOHANG) == pid { exited = true }
        return !exited
    }

    deinit { stop(SIGKILL) }
}

struct SpawnError: Error, CustomStringConvertible {
    var message: String
    var description: String { message }
}
