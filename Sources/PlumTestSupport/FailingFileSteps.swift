import PlumSystem

/// Real file steps with one kind of step failing, as a full card or a failing fsync does: for
/// the tests of every durable write (the stores' and setup's).
package struct FailingFileSteps: FileSteps {
    package enum Step: String, Sendable, CaseIterable { case create, syncFile, rename, syncDirectory }

    package let failing: Step
    package let errno: Errno
    private let real = SystemFileSteps()

    package init(failing: Step, errno: Errno) {
        self.failing = failing
        self.errno = errno
    }

    package func read(_ path: String, limit: Int) -> Result<[UInt8]?, Errno> { real.read(path, limit: limit) }
    package func list(_ directory: String) -> Result<[String], Errno> { real.list(directory) }
    package func link(_ existing: String, _ new: String) -> Result<Void, Errno> { real.link(existing, new) }
    package func remove(_ path: String) -> Result<Void, Errno> { real.remove(path) }

    /// A failing create leaves what a full disk leaves: the file created, cut short.
    package func create(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, Errno> {
        guard failing == .create else { return real.create(path, bytes, mode: mode) }
        _ = real.create(path, Array(bytes.prefix(bytes.count / 2)), mode: mode)
        return .failure(errno)
    }
    package func syncFile(_ path: String) -> Result<Void, Errno> {
        failing == .syncFile ? .failure(errno) : real.syncFile(path)
    }
    package func rename(_ from: String, _ to: String) -> Result<Void, Errno> {
        failing == .rename ? .failure(errno) : real.rename(from, to)
    }
    package func syncDirectory(_ path: String) -> Result<Void, Errno> {
        failing == .syncDirectory ? .failure(errno) : real.syncDirectory(path)
    }
}
