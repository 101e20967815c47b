import Synchronization

@testable import PlumCore

/// Real file steps that "lose power" after a set number of changing steps.
///
/// Steps up to `crashAfter` run for real. The next one does nothing, except a write, which is
/// torn: only the first half of its bytes reach the file. Every later step fails too, as if
/// the process were gone.
final class CrashingFileSteps: FileSteps {
    private let real = POSIXFileSteps()
    private let crashAfter: Int
    private let performed = Mutex(0)

    init(crashAfter: Int) { self.crashAfter = crashAfter }

    /// Changing steps attempted so far (including the one that crashed).
    var attempted: Int { performed.withLock { $0 } }

    private func proceed() -> Bool {
        performed.withLock { count in
            count += 1
            return count <= crashAfter
        }
    }

    func read(_ path: String) -> Result<[UInt8]?, FileErrno> { real.read(path) }
    func list(_ directory: String) -> Result<[String], FileErrno> { real.list(directory) }

    func write(_ path: String, _ bytes: [UInt8]) -> Result<Void, FileErrno> {
        guard proceed() else {
            if attempted == crashAfter + 1 { _ = real.write(path, Array(bytes.prefix(bytes.count / 2))) }
            return .failure(FileErrno(5))
        }
        return real.write(path, bytes)
    }

    func syncFile(_ path: String) -> Result<Void, FileErrno> {
        proceed() ? real.syncFile(path) : .failure(FileErrno(5))
    }
    func link(_ existing: String, _ new: String) -> Result<Void, FileErrno> {
        proceed() ? real.link(existing, new) : .failure(FileErrno(5))
    }
    func rename(_ from: String, _ to: String) -> Result<Void, FileErrno> {
        proceed() ? real.rename(from, to) : .failure(FileErrno(5))
    }
    func remove(_ path: String) -> Result<Void, FileErrno> { proceed() ? real.remove(path) : .failure(FileErrno(5)) }
    func syncDirectory(_ path: String) -> Result<Void, FileErrno> {
        proceed() ? real.syncDirectory(path) : .failure(FileErrno(5))
    }
}
