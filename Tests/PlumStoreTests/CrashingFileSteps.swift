import PlumCore
import PlumSystem
import Synchronization

@testable import PlumStore

/// Real file steps that "lose power" after a set number of changing steps.
///
/// Steps up to `crashAfter` run for real. The next one does nothing, except a write, which is
/// torn: only the first half of its bytes reach the file. Every later step fails too, as if
/// the process were gone.
final class CrashingFileSteps: FileSteps {
    private let real = SystemFileSteps()
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

    func read(_ path: String, limit: Int) -> Result<[UInt8]?, Errno> { real.read(path, limit: limit) }
    func list(_ directory: String) -> Result<[String], Errno> { real.list(directory) }

    func create(_ path: String, _ bytes: [UInt8], mode: UInt32) -> Result<Void, Errno> {
        guard proceed() else {
            if attempted == crashAfter + 1 { _ = real.create(path, Array(bytes.prefix(bytes.count / 2)), mode: mode) }
            return .failure(.ioError)
        }
        return real.create(path, bytes, mode: mode)
    }

    func syncFile(_ path: String) -> Result<Void, Errno> {
        proceed() ? real.syncFile(path) : .failure(.ioError)
    }
    func link(_ existing: String, _ new: String) -> Result<Void, Errno> {
        proceed() ? real.link(existing, new) : .failure(.ioError)
    }
    func rename(_ from: String, _ to: String) -> Result<Void, Errno> {
        proceed() ? real.rename(from, to) : .failure(.ioError)
    }
    func remove(_ path: String) -> Result<Void, Errno> { proceed() ? real.remove(path) : .failure(.ioError) }
    func syncDirectory(_ path: String) -> Result<Void, Errno> {
        proceed() ? real.syncDirectory(path) : .failure(.ioError)
    }
}
