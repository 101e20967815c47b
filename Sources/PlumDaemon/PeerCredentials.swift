#if canImport(Glibc)
import Glibc
#endif

/// Who is at the other end of a Unix-socket connection, as the kernel vouches for it.
///
/// The process id, user and primary group come from `SO_PEERCRED`, which the kernel records
/// at `connect(2)`: a client cannot forge them. TCP clients have none (``ClientInfo/peer`` is
/// nil).
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    /// The peer's process id in this daemon's pid namespace; 0 when the peer's namespace hides it.
    public var pid: Int32
    /// The peer's effective user id when it connected.
    public var uid: UInt32
    /// The peer's effective group id when it connected.
    public var gid: UInt32
    /// The peer's supplementary groups, read when the connection was accepted; nil when they
    /// could not be read (see ``ProcessGroups``). Unknown groups grant nothing.
    public var groups: [UInt32]?

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]?) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The primary group and the supplementary groups, as far as they are known.
    public var allGroups: [UInt32] { [gid] + (groups ?? []).filter { $0 != gid } }

    public var description: String {
        "pid \(pid) uid \(uid) gid \(gid) groups \(groups.map { $0.map(String.init).joined(separator: ",") } ?? "unknown")"
    }
}

/// `struct ucred` of <sys/socket.h> (pid_t, uid_t, gid_t, in this order), declared here because
/// Glibc defines it only under `_GNU_SOURCE`, which Swift's Glibc module does not set.
struct SocketPeerCredential: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}

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
