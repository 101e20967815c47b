import Foundation

/// A small tmpfs mounted over a directory, so that a test can fill it: a full disk (ENOSPC) in
/// a second, without a loop device or a VM.
///
/// Mounting needs root (CAP_SYS_ADMIN), as in CI and on the project's machines; elsewhere
/// ``unavailable`` says why, for the test's `.enabled(if:)` trait, so the test is reported as
/// skipped with its reason, never passed without running. The file system is unmounted
/// (lazily, so a process still using it cannot keep it) when released.
package final class SmallFileSystem: Sendable {
    /// The directory the tmpfs is mounted on.
    package let path: String
    /// The file ``fill()`` grows until the file system is full.
    package var fillerPath: String { path + "/filler" }

    /// Nil when this process can mount a tmpfs, else why not: tried once, on a scratch directory.
    package static let unavailable: String? = {
        guard geteuid() == 0 else { return "mounting a tmpfs needs root; run the tests as root (CI does)" }
        do {
            let scratch = try TemporaryDirectory(prefix: "plumtmpfs")
            _ = try SmallFileSystem(at: scratch.file("probe"), kilobytes: 64)
            return nil
        } catch {
            return "cannot mount a tmpfs here: \(error)"
        }
    }()

    /// Mounts a tmpfs of `kilobytes` on `path`, creating the directory.
    /// - Throws: ``FixtureError`` with mount's own message.
    package init(at path: String, kilobytes: Int = 512) throws {
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        let run: ChildProcess = try ChildProcess.run(
            "mount", ["-t", "tmpfs", "-o", "size=\(kilobytes)k,mode=0755", "tmpfs", path])
        guard run.status == 0 else {
            throw FixtureError("mounting a \(kilobytes) KiB tmpfs on \(path) failed (\(run.status)): \(run.stderr)")
        }
        self.path = path
    }

    deinit { _ = try? ChildProcess.run("umount", ["--lazy", path]) as ChildProcess }

    /// Grows the filler file until a write fails with ENOSPC: the file system is then full.
    /// - Returns: the bytes the filler holds.
    /// - Throws: ``FixtureError`` when the filler cannot be opened or a write fails otherwise.
    @discardableResult
    package func fill() throws -> Int {
        let descriptor = open(fillerPath, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw FixtureError("opening \(fillerPath): \(String(cString: strerror(errno)))") }
        defer { close(descriptor) }
        let block = [UInt8](repeating: 0x50, count: 4096)
        var total = 0
        while true {
            let written = block.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written > 0 {
                total += written
            } else if written < 0 && errno == ENOSPC {
                return total
            } else if !(written < 0 && errno == EINTR) {
                throw FixtureError("filling \(fillerPath) stopped at \(total) bytes without ENOSPC (errno \(errno))")
            }
        }
    }

    /// Removes the filler: the space is back.
    package func removeFiller() throws { try FileManager.default.removeItem(atPath: fillerPath) }

    /// Bytes free now (`statvfs(2)` `f_bavail`).
    package var freeBytes: Int {
        var stats = statvfs()
        guard statvfs(path, &stats) == 0 else { return -1 }
        return Int(stats.f_bavail) * Int(stats.f_frsize)
    }
}
