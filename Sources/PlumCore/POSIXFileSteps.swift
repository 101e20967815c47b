#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// The POSIX implementation of ``FileSteps``; each wrapper retries on EINTR and returns errno.
struct POSIXFileSteps: FileSteps {
    func read(_ path: String) -> Result<[UInt8]?, FileErrno> {
        let fd = retrying { open(path, O_RDONLY | O_CLOEXEC) }
        if fd < 0 { return errno == ENOENT ? .success(nil) : .failure(FileErrno(errno)) }
        defer { _ = close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let count = chunk.withUnsafeMutableBytes { buffer in
                retrying { Glibc.read(fd, buffer.baseAddress, buffer.count) }
            }
            if count < 0 { return .failure(FileErrno(errno)) }
            if count == 0 { return .success(bytes) }
            // A calibration file is a few kilobytes; refuse to swallow something enormous.
            if bytes.count > 16 * 1024 * 1024 { return .failure(FileErrno(EFBIG)) }
            bytes.append(contentsOf: chunk[0..<count])
        }
    }

    func write(_ path: String, _ bytes: [UInt8]) -> Result<Void, FileErrno> {
        let fd = retrying { open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644) }
        if fd < 0 { return .failure(FileErrno(errno)) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { buffer in
                retrying { Glibc.write(fd, buffer.baseAddress! + written, buffer.count - written) }
            }
            if count < 0 {
                let error = errno
                _ = close(fd)
                return .failure(FileErrno(error))
            }
            written += count
        }
        return close(fd) == 0 ? .success(()) : .failure(FileErrno(errno))
    }

    func syncFile(_ path: String) -> Result<Void, FileErrno> { sync(path, flags: O_RDONLY) }

    func syncDirectory(_ path: String) -> Result<Void, FileErrno> { sync(path, flags: O_RDONLY | O_DIRECTORY) }

    func link(_ existing: String, _ new: String) -> Result<Void, FileErrno> {
        retrying { Glibc.link(existing, new) } == 0 ? .success(()) : .failure(FileErrno(errno))
    }

    func rename(_ from: String, _ to: String) -> Result<Void, FileErrno> {
        retrying { Glibc.rename(from, to) } == 0 ? .success(()) : .failure(FileErrno(errno))
    }

    func remove(_ path: String) -> Result<Void, FileErrno> {
        if retrying({ unlink(path) }) == 0 || errno == ENOENT { return .success(()) }
        return .failure(FileErrno(errno))
    }

    func list(_ directory: String) -> Result<[String], FileErrno> {
        guard let stream = opendir(directory) else { return .failure(FileErrno(errno)) }
        defer { _ = closedir(stream) }
        var names: [String] = []
        while true {
            errno = 0
            guard let entry = readdir(stream) else {
                return errno == 0 ? .success(names) : .failure(FileErrno(errno))
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    private func sync(_ path: String, flags: Int32) -> Result<Void, FileErrno> {
        let fd = retrying { open(path, flags | O_CLOEXEC) }
        if fd < 0 { return .failure(FileErrno(errno)) }
        defer { _ = close(fd) }
        return retrying { fsync(fd) } == 0 ? .success(()) : .failure(FileErrno(errno))
    }

    private func retrying<T: BinaryInteger>(_ call: () -> T) -> T {
        while true {
            let result = call()
            if result >= 0 || errno != EINTR { return result }
        }
    }
}
