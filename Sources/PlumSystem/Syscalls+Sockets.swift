internal import CPlumSystem

#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#endif

/// The sockets' thin wrappers: what the transport's fast path (accepting outside NIO, writing
/// with one `send(2)`) calls, with the `-1`/`errno`/`EINTR` handling in one place.
extension Syscalls {
    /// `socket(2)` of a stream socket, non-blocking and close-on-exec.
    package static func streamSocket(family: CInt) -> Result<CInt, Errno> {
        once { socket(family, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0) }
    }

    /// `accept4(2)` of one queued connection: non-blocking and close-on-exec, so that it leaks
    /// into no child process and never blocks the thread that owns it. `EINTR` is retried.
    package static func accept(_ listening: CInt) -> Result<CInt, Errno> {
        retrying { plum_system_accept(listening) }
    }

    /// A non-blocking, close-on-exec `eventfd(2)`, for waking a thread asleep in `poll(2)`.
    package static func wakeDescriptor() -> Result<CInt, Errno> {
        once { plum_system_wake_descriptor() }
    }

    /// `send(2)` with `MSG_NOSIGNAL` (a closed peer is `EPIPE`, not a `SIGPIPE` that would kill
    /// the daemon). `EINTR` is retried; on a non-blocking socket a full buffer is `EAGAIN`.
    @inline(__always)
    package static func send(_ descriptor: CInt, _ bytes: UnsafeRawBufferPointer) -> Result<Int, Errno> {
        retrying { Glibc.send(descriptor, bytes.baseAddress, bytes.count, CInt(MSG_NOSIGNAL)) }
    }

    /// The peer of a connected Unix socket, as the kernel recorded it at `connect(2)`
    /// (`SO_PEERCRED`). `ENOTSOCK` when `socket` is a pipe or a file.
    package static func peerCredentials(_ socket: CInt) -> Result<PeerIdentity, Errno> {
        var pid: CInt = 0
        var uid: CUnsignedInt = 0
        var gid: CUnsignedInt = 0
        return once { plum_system_peer_credentials(socket, &pid, &uid, &gid) }
            .map { _ in PeerIdentity(pid: pid, uid: uid, gid: gid) }
    }

    /// The peer's supplementary groups (`SO_PEERGROUPS`, Linux 4.13), race-free: the groups the
    /// kernel recorded at `connect(2)`, not those of a pid that may since be another process.
    package static func peerGroups(_ socket: CInt) -> Result<[UInt32], Errno> {
        var capacity = 64
        while true {
            var groups = [CUnsignedInt](repeating: 0, count: capacity)
            let result = groups.withUnsafeMutableBufferPointer { buffer in
                once { plum_system_peer_groups(socket, buffer.baseAddress!, CInt(buffer.count)) }
            }
            switch result {
            case .success(let count): return .success(Array(groups.prefix(Int(count))))
            case .failure(let error) where error.rawValue == ERANGE && capacity < 65_536: capacity *= 8
            case .failure(let error): return .failure(error)
            }
        }
    }
}

/// Who is at the other end of a Unix socket, by the kernel's word (`struct ucred`).
package struct PeerIdentity: Sendable, Equatable {
    package var pid: CInt
    package var uid: UInt32
    package var gid: UInt32
}
