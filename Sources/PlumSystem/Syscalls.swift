internal import CPlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// One thin wrapper per C call: the only place that knows about `-1`/`errno` and `EINTR`.
///
/// Everything above it sees `Result<_, Errno>` (the internal layer) or `throws(SystemError)`
/// (the public layer). Modelled on swift-system's `Internals/Syscalls.swift`. The hardware's
/// wrappers (GPIO, I2C) extend it in PlumHardware; the sockets' are in `Syscalls+Sockets.swift`.
package enum Syscalls {
    // MARK: Conventions

    /// Calls `body` until it does not fail with `EINTR`; a negative result becomes `errno`.
    @inlinable @inline(__always)
    package static func retrying<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
        while true {
            let result = body()
            if result >= 0 { return .success(result) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    /// Calls `body` once; a negative result becomes `errno`. For calls whose `EINTR` the caller
    /// handles itself, or that never block.
    @inlinable @inline(__always)
    package static func once<T: FixedWidthInteger>(_ body: () -> T) -> Result<T, Errno> {
        let result = body()
        return result >= 0 ? .success(result) : .failure(.current)
    }

    @inlinable @inline(__always)
    package static func pointer(_ body: () -> OpaquePointer?) -> Result<OpaquePointer, Errno> {
        while true {
            if let pointer = body() { return .success(pointer) }
            let error = Errno.current
            if error != .interrupted { return .failure(error) }
        }
    }

    // MARK: Files and directories

    package static func openFile(_ path: String, flags: Int32) -> Result<Int32, Errno> {
        retrying { open(path, flags | O_CLOEXEC) }
    }

    /// Closes a descriptor. `EINTR` is not retried: on Linux the descriptor is gone either way.
    package static func closeFile(_ fd: Int32) { _ = close(fd) }

    package static func readFile(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> Result<Int, Errno> {
        retrying { read(fd, buffer.baseAddress, buffer.count) }
    }

    /// Reads a small text file whole, as sysfs attributes are read: one open, reads until EOF
    /// or `limit` bytes. The buffer is on the stack, and a short value ("1234\n") becomes a
    /// small string, so a sampler polling `in_voltage0_raw` does not allocate.
    package static func readSmallFile(_ path: String, limit: Int = 4096) -> Result<String, Errno> {
        let fd: Int32
        switch openFile(path, flags: O_RDONLY) {
        case .success(let value): fd = value
        case .failure(let error): return .failure(error)
        }
        defer { closeFile(fd) }
        return withUnsafeTemporaryAllocation(byteCount: limit, alignment: 1) { buffer in
            var count = 0
            while count < limit {
                switch readFile(fd, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...])) {
                case .success(0): return .success(String(decoding: buffer[..<count], as: UTF8.self))
                case .success(let n): count += n
                case .failure(let error): return .failure(error)
                }
            }
            return .success(String(decoding: buffer[..<count], as: UTF8.self))
        }
    }

    /// The entry names of a directory, without "." and "..". A failing `readdir(3)` is an error,
    /// not the end of the list: it sets `errno` where the end leaves it alone.
    package static func listDirectory(_ path: String) -> Result<[String], Errno> {
        guard let directory = opendir(path) else { return .failure(.current) }
        defer { closedir(directory) }
        var names: [String] = []
        while true {
            Errno.current = Errno(rawValue: 0)
            guard let entry = readdir(directory) else {
                let error = Errno.current
                return error.rawValue == 0 ? .success(names) : .failure(error)
            }
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
    }

    /// Names the calling thread for the kernel (`ps -L`, `top -H`, gdb), cut to its 15 bytes.
    package static func setThreadName(_ name: String) {
        _ = plum_system_set_thread_name(String(decoding: name.utf8.prefix(15), as: UTF8.self))
    }

    /// The calling thread's name as the kernel keeps it.
    package static func threadName() -> String {
        var buffer = [CChar](repeating: 0, count: 32)
        guard plum_system_thread_name(&buffer, UInt(buffer.count)) == 0 else { return "" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
