import PlumProtocol

#if canImport(Glibc)
    import Glibc
#endif

extension StatusText {
    /// One line per service the daemon lists (`?CLIENT`, protocol 1.7): "plumscale-mqtt:
    /// connected, up 3 h 12 min, 2 reconnects; broker connected", or "plumscale-web: not
    /// connected since 2026-11-27T10:42:00Z". Nil `clients` (an older daemon) prints nothing.
    package static func services(
        _ clients: [ServiceReport]?, userName: (UInt32) -> String? = StatusText.userName
    ) -> [String] {
        guard let clients else { return [] }
        guard !clients.isEmpty else {
            return ["  services     none has announced itself (plumscale-mqtt and plumscale-web do when they run)"]
        }
        return clients.map { "  service      \(service($0, userName: userName))" }
    }

    /// The user name of `uid` on this machine (`getpwuid_r`), or nil.
    package static func userName(_ uid: UInt32) -> String? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name
        else { return nil }
        return String(cString: name)
    }

    /// The words for one service, without the column. A name is what the client said; when the
    /// user it runs as (its uid, by the kernel's word) has another name, that is shown too, so
    /// a reader who calls itself `plumscale-mqtt` does not pass for the bridge.
    package static func service(_ client: ServiceReport, userName: (UInt32) -> String? = { _ in nil }) -> String {
        var parts: [String] = []
        if client.connected {
            parts.append("connected")
            if let uptime = client.uptime { parts.append("up \(duration(uptime))") }
        } else {
            parts.append("not connected" + (client.lastSeen.map { " since \($0)" } ?? ""))
        }
        if let reconnects = client.reconnects {
            parts.append(reconnects == 1 ? "1 reconnect" : "\(reconnects) reconnects")
        }
        var text = "\(client.name)\(client.version.map { " \($0)" } ?? ""): " + parts.joined(separator: ", ")
        let facts = client.detail.sorted { $0.key < $1.key }.map { key, value in
            "\(key.replacingUnderscores) \(Self.text(value))"
        }
        if !facts.isEmpty { text += "; " + facts.joined(separator: "; ") }
        if let uid = client.uid, uid != 0, case let user = userName(uid), user != client.name {
            text += " [announced by uid \(uid)" + (user.map { " (\($0))" } ?? "") + ", not by a user of that name]"
        }
        return text
    }

    private static func text(_ value: ServiceReport.DetailValue) -> String {
        switch value {
        case .text(let text): text
        case .number(let number): number == number.rounded() && abs(number) < 1e15 ? String(Int(number)) : "\(number)"
        case .flag(let flag): flag ? "yes" : "no"
        }
    }
}
