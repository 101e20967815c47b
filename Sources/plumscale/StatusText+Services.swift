import PlumProtocol

extension StatusText {
    /// One line per service the daemon lists (`?CLIENT`, protocol 1.7): "plumscale-mqtt:
    /// connected, up 3 h 12 min, 2 reconnects; broker connected", or "plumscale-web: not
    /// connected since 2026-11-27T10:42:00Z". Nil `clients` (an older daemon) prints nothing.
    static func services(_ clients: [ServiceReport]?) -> [String] {
        guard let clients else { return [] }
        guard !clients.isEmpty else {
            return ["  services     none has announced itself (plumscale-mqtt and plumscale-web do when they run)"]
        }
        return clients.map { "  service      \(service($0))" }
    }

    /// The words for one service, without the column.
    static func service(_ client: ServiceReport) -> String {
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
