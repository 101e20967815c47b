#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The calls a small server on standard input makes: a second descriptor for its output, a
/// wait for input with a deadline, a group looked up by name.
extension Syscalls {
    /// A new descriptor for what `fd` refers to (dup(2), close-on-exec).
    package static func duplicate(_ fd: Int32) -> Result<Int32, Errno> {
        retrying { fcntl(fd, F_DUPFD_CLOEXEC, 0) }
    }

    /// Makes `target` refer to what `fd` refers to (dup2(2)), as a redirection of stdout does.
    package static func redirect(_ fd: Int32, onto target: Int32) -> Result<Void, Errno> {
        retrying { dup2(fd, target) }.map { _ in () }
    }

    /// Waits until `fd` has input (or its end), at most `milliseconds`: true when it has, false
    /// when the time passed first. `EINTR` waits again for what is left of the time.
    package static func waitReadable(_ fd: Int32, milliseconds: Int) -> Result<Bool, Errno> {
        let seconds = { Double(SystemMonotonicClock().now().nanoseconds) / 1e9 }
        let deadline = seconds() + Double(milliseconds) / 1000
        while true {
            var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            let left = Int32(clamping: max(0, Int(((deadline - seconds()) * 1000).rounded(.up))))
            let ready = poll(&entry, 1, left)
            if ready >= 0 { return .success(ready > 0) }
            let error = Errno.current
            guard error == .interrupted else { return .failure(error) }
        }
    }

    /// The id of the group called `name`, or nil when there is none (getgrnam(3)).
    package static func groupID(named name: String) -> UInt32? {
        getgrnam(name).map { $0.pointee.gr_gid }
    }
}
