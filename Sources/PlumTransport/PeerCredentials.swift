/// Who is at the other end of a Unix-socket connection, as the kernel vouches for it.
///
/// The process id, user and primary group come from `SO_PEERCRED`, which the kernel records
/// at `connect(2)`: a client cannot forge them. TCP clients have none (``ClientInfo/peer`` is
/// nil).
package struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    /// The peer's process id in this daemon's pid namespace; 0 when the peer's namespace hides it.
    package var pid: Int32
    /// The peer's effective user id when it connected.
    package var uid: UInt32
    /// The peer's effective group id when it connected.
    package var gid: UInt32
    /// The peer's supplementary groups, read when the connection was accepted; nil when they
    /// could not be read (see ``ProcessGroups``). Unknown groups grant nothing.
    package var groups: [UInt32]?

    package init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]?) {
        self.pid = pid
        self.uid = uid
        self.gid = gid
        self.groups = groups
    }

    /// The primary group and the supplementary groups, as far as they are known.
    package var allGroups: [UInt32] { [gid] + (groups ?? []).filter { $0 != gid } }

    package var description: String {
        let list = groups.map { $0.map(String.init).joined(separator: ",") } ?? "unknown"
        return "pid \(pid) uid \(uid) gid \(gid) groups \(list)"
    }
}

/// `struct ucred` of <sys/socket.h> (pid_t, uid_t, gid_t, in this order), declared here because
/// Glibc defines it only under `_GNU_SOURCE`, which Swift's Glibc module does not set.
struct SocketPeerCredential: Sendable {
    var pid: Int32 = 0
    var uid: UInt32 = 0
    var gid: UInt32 = 0
}
