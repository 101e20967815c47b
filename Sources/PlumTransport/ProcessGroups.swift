#if canImport(Glibc)
    internal import Glibc
#endif

/// The supplementary groups of a peer process.
///
/// They are read from the `Groups:` line of `/proc/<pid>/status` when the connection is
/// accepted, and checked against the `Uid:` line of the same file: if the effective uid there
/// is not the one `SO_PEERCRED` reported, the pid was reused or the process changed identity,
/// and the groups are treated as unknown (granting nothing).
///
/// Why not the alternatives:
/// - `getgrouplist(3)` on the uid's user name answers from the group *database* (files, or
///   LDAP/sssd through NSS, which may block the event loop), not from the process: it grants a
///   group to a process that dropped it (`setpriv --clear-groups`, a systemd unit without
///   `SupplementaryGroups=`) and to a user added to the group who has not logged in again,
///   and it knows nothing of a uid without a passwd entry (`DynamicUser=`). The kernel checks
///   the socket file's group against the process's actual groups; so does this.
/// - `SO_PEERGROUPS` (Linux 4.13) would be exact and race-free, but SwiftNIO's
///   `unsafeGetSocketOption` reads a fixed-size value and drops the length the kernel returns,
///   so the number of groups cannot be known through it.
enum ProcessGroups {
    /// The supplementary groups of `pid`, or nil when they cannot be read or `pid` no longer
    /// runs as `uid`.
    static func read(pid: Int32, uid: UInt32, procRoot: String = "/proc") -> [UInt32]? {
        guard pid > 0, let status = readSmallFile("\(procRoot)/\(pid)/status") else { return nil }
        return parse(status: status, uid: uid)
    }

    /// Parses a `/proc/<pid>/status` text: the `Groups:` ids, if its effective uid (the second
    /// field of `Uid:`) is `uid`.
    static func parse(status: String, uid: UInt32) -> [UInt32]? {
        var groups: [UInt32]?
        var effectiveUID: UInt32?
        for line in status.split(separator: "\n") {
            if line.hasPrefix("Uid:") {
                let fields = line.dropFirst(4).split(whereSeparator: { $0 == " " || $0 == "\t" })
                if fields.count >= 2 { effectiveUID = UInt32(fields[1]) }
            } else if line.hasPrefix("Groups:") {
                let fields = line.dropFirst(7).split(whereSeparator: { $0 == " " || $0 == "\t" })
                let ids = fields.compactMap { UInt32($0) }
                guard ids.count == fields.count else { return nil }
                groups = ids
            }
        }
        guard effectiveUID == uid else { return nil }
        return groups
    }

    /// A procfs file is generated in memory on read: this does not block on a disk.
    private static func readSmallFile(_ path: String) -> String? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count < 65_536 {
            let count = chunk.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
