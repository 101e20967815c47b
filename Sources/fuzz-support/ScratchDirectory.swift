import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// A private directory for targets whose parser reads a file by path (traces, calibration
/// files): each input is written there and the real reader opens it, as it would on a Pi.
///
/// It is made under `$TMPDIR` (`/tmp` when unset); `Tests/fuzz/run.sh` points that into its
/// scratch path and removes it afterwards.
package final class ScratchDirectory: @unchecked Sendable {
    // @unchecked: a fuzz target runs its inputs one at a time on one thread.
    package let path: String

    package init() {
        let base = getenv("TMPDIR").map { String(cString: $0) } ?? "/tmp"
        var template = Array("\(base)/plumscale-fuzz-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            fatalError("cannot make a scratch directory under \(base): \(Errno.current)")
        }
        path = String(cString: made)
    }

    /// Replaces the file `name` with `bytes` and returns its path.
    @discardableResult
    package func write(_ bytes: UnsafeRawBufferPointer, to name: String) -> String {
        let file = "\(path)/\(name)"
        guard let handle = fopen(file, "wb") else {
            fatalError("cannot write \(file): \(Errno.current)")
        }
        if bytes.count > 0 { fwrite(bytes.baseAddress, 1, bytes.count, handle) }
        fclose(handle)
        return file
    }

    /// Removes the file `name`, if it is there.
    package func remove(_ name: String) {
        unlink("\(path)/\(name)")
    }
}
