/// Who may change the scale's state (zero, tare, calibration): the decision alone, with no
/// I/O, so it can be tested exhaustively.
///
/// Anyone who can open a socket may read. A state-changing command is permitted to a Unix-socket
/// peer whose `SO_PEERCRED` uid is root or the daemon's own uid, or whose primary or
/// supplementary groups include the configured admin group. A TCP client has no credentials
/// the daemon can check, so it is read-only (docs/protocol.md).
package struct CommandAuthorization: Hashable, Sendable {
    /// The group whose members may change state: `[daemon] admin_group`, resolved to its id.
    package struct AdminGroup: Hashable, Sendable {
        package var name: String
        package var gid: UInt32
        package init(name: String, gid: UInt32) {
            self.name = name
            self.gid = gid
        }
    }

    /// Why a peer may change state, for the log.
    package enum Grant: Hashable, Sendable {
        case root
        case daemonUser
        case adminGroup
    }

    package enum Decision: Hashable, Sendable {
        case permitted(Grant)
        /// The reason and what to do about it, starting "not permitted: ".
        case refused(String)

        package var isPermitted: Bool {
            if case .permitted = self { true } else { false }
        }
    }

    /// The uid the daemon runs as.
    package var daemonUID: UInt32
    /// Its user name, for messages; nil when the uid has no passwd entry.
    package var daemonUserName: String?
    package var adminGroup: AdminGroup?
    /// The Unix socket a TCP client is told to use instead, if the daemon has one.
    package var unixSocket: String?

    package init(
        daemonUID: UInt32, daemonUserName: String? = nil, adminGroup: AdminGroup? = nil, unixSocket: String? = nil
    ) {
        self.daemonUID = daemonUID
        self.daemonUserName = daemonUserName
        self.adminGroup = adminGroup
        self.unixSocket = unixSocket
    }

    /// Whether `peer` may carry out `command` (named as the client wrote it, such as `?TARE`),
    /// which changes state.
    /// - Parameter peer: The Unix-socket peer's credentials; nil for a TCP client.
    package func decide(_ peer: PeerCredentials?, command: String) -> Decision {
        guard let peer else {
            var message =
                "not permitted: \(command) changes the scale, and a TCP client has no credentials the daemon can "
                + "check, so TCP is read-only; "
            message +=
                "send it over \(unixSocket.map { "the Unix socket \($0)" } ?? "a Unix-socket listener") as \(whoMay)"
            return .refused(message)
        }
        if peer.uid == 0 { return .permitted(.root) }
        if peer.uid == daemonUID { return .permitted(.daemonUser) }
        if let adminGroup, peer.allGroups.contains(adminGroup.gid) { return .permitted(.adminGroup) }

        var message = "not permitted: \(command) changes the scale and is allowed only to \(whoMay); "
        message += "this client runs as uid \(peer.uid), gid \(peer.gid)"
        if let groups = peer.groups {
            message +=
                groups.isEmpty
                ? " with no supplementary groups" : ", groups \(groups.map(String.init).joined(separator: ","))"
        } else {
            message += " (its supplementary groups could not be read)"
        }
        if let adminGroup {
            message +=
                "; join the group (sudo usermod -aG \(adminGroup.name) $USER, then log in again) or run the client as "
                + "\(daemonUser)"
        } else {
            message +=
                "; run the client as \(daemonUser), or set [daemon] admin_group in plumscale.toml so a group's "
                + "members may"
        }
        return .refused(message)
    }

    /// Whether `peer` may change the scale at all: such peers also get the client slots kept
    /// for them (``ClientHub/Configuration/reservedClients``) and are never closed as idle.
    package func mayChangeState(_ peer: PeerCredentials?) -> Bool {
        decide(peer, command: "").isPermitted
    }

    private var daemonUser: String {
        if daemonUID == 0 { return "root" }
        return daemonUserName.map { "'\($0)' (uid \(daemonUID))" } ?? "uid \(daemonUID)"
    }

    private var whoMay: String {
        var who = ["root"]
        if daemonUID != 0 { who.append("the daemon's user \(daemonUser)") }
        if let adminGroup { who.append("members of group '\(adminGroup.name)'") }
        return who.count == 1 ? who[0] : who.dropLast().joined(separator: ", ") + " or " + who[who.count - 1]
    }
}
