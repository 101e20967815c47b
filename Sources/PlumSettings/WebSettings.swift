package import TOMLKit

/// The `[web]` table: how plumscale-web listens, who may change the scale through it, and
/// where it keeps the history. plumscaled checks the table too, so a typo is caught by
/// whichever reads the file first.
///
///     [web]
///     listen = "127.0.0.1:8385"
///     lan_read_only = false
///     auth_file = "/etc/plumscale/web-password"
///     history = "/var/lib/plumscale-web/history.sqlite"
///     retention_days = 90
///     history_commit_seconds = 90
///     login_backoff_seconds = 60
///     allowed_hosts = ["scale.local"]
///     trusted_proxy = "127.0.0.1"
///     cookie_secure = false
///     max_watchers = 100
///     setup_socket = "/run/plumscale-setup.sock"
package struct WebSettings: Hashable, Sendable {
    package static let defaultListen = WebListenAddress(host: "127.0.0.1", port: 8385)
    package static let defaultAuthFile = "/etc/plumscale/web-password"
    /// Where plumscale-setup.socket listens (`ListenStream=`).
    package static let defaultSetupSocket = "/run/plumscale-setup.sock"

    /// Where the HTTP server listens.
    package var listen: WebListenAddress = WebSettings.defaultListen
    /// Opens the read-only view (page, live readings, history, metrics) to the LAN: the
    /// server listens on every address, and a peer that is not on this machine may read but
    /// never log in or change the scale.
    package var lanReadOnly = false
    /// The file holding the bcrypt hash of the password that state-changing actions need.
    package var authFile: String = WebSettings.defaultAuthFile
    /// The SQLite history; nil: `history.sqlite` in the state directory.
    package var historyPath: String?
    /// How long the history is kept, in days.
    package var retentionDays = 90
    /// How long a placement, an item or a session's figures may wait in memory before the history
    /// is written: what a power cut can lose of them. At a new load every minute, 90 s lets two
    /// placements share each commit, which is what keeps the SD card within 50 MB a day
    /// (docs/PERFORMANCE.md, "Writes to the SD card"); 1 writes each within a second.
    package static let defaultHistoryCommitSeconds = 90
    package var historyCommitSeconds = WebSettings.defaultHistoryCommitSeconds
    /// How long five wrong passwords lock the login (per peer, and for everyone after five in
    /// all), and how long a wrong password counts toward the five.
    package var loginBackoffSeconds = 60
    /// Host names, beyond loopback and IP addresses, that requests may name in `Host`: the
    /// names the page is reached by (`scale.local`, a reverse proxy's name). Any other name is
    /// refused, which stops DNS rebinding. An entry may carry a port, `scale.example:443`.
    package var allowedHosts: [String] = []
    /// The address of a reverse proxy in front (an IP): from it alone `X-Forwarded-For` names
    /// the client, for the login's back-off, the logs and `lan_read_only`.
    package var trustedProxy: String?
    /// Marks the session cookie `Secure`, so a browser sends it over HTTPS only: set it when a
    /// TLS proxy is in front.
    package var cookieSecure = false
    /// Browsers watching `/ws` at most; each holds a socket, a task and a queue of frames.
    package var maxWatchers = 100
    /// The setup socket, through which an administrator runs `plumscale setup`'s steps from the
    /// page when the scale is not set up (docs/web.md, "The first run").
    package var setupSocket: String = WebSettings.defaultSetupSocket

    package init() {}

    /// The `[web]` table of the configuration file at `path`; the defaults when the table is
    /// absent. The rest of the file is plumscaled's to check.
    package static func load(path: String) throws(ConfigurationError) -> WebSettings {
        try parse(ConfigurationFile.text(at: path), file: path)
    }

    /// Parses the `[web]` table out of configuration text; `file` names it in errors.
    package static func parse(_ text: String, file: String) throws(ConfigurationError) -> WebSettings {
        let table = try TOMLTable.parse(text, file: file)
        return try parse(table: table, file: file, locator: SourceLocator(text: text))
    }

    package static func parse(
        table: TOMLTable, file: String, locator: SourceLocator
    ) throws(ConfigurationError) -> WebSettings {
        guard let value = table["web"] else { return WebSettings() }
        guard let webTable = value.table else {
            let root = TOMLReader(table: table, file: file, path: "", locator: locator, section: .root)
            throw root.error("web", "expected a table [web]")
        }
        var reader = TOMLReader(table: webTable, file: file, path: "web", locator: locator, section: .table("web"))
        var settings = WebSettings()
        if let listen = try reader.string("listen") {
            guard let address = WebListenAddress(listen) else {
                throw reader.error(
                    "listen",
                    "listen = \"\(listen)\" is not HOST:PORT; use \"127.0.0.1:8385\", \"[::1]:8385\" "
                        + "or, to serve the LAN, \"0.0.0.0:8385\"")
            }
            settings.listen = address
        }
        settings.lanReadOnly = try reader.bool("lan_read_only") ?? false
        if let path = try reader.string("auth_file") {
            guard path.hasPrefix("/") else {
                throw reader.error(
                    "auth_file", "auth_file = \"\(path)\" must be an absolute path, such as \"\(defaultAuthFile)\"")
            }
            settings.authFile = path
        }
        if let path = try reader.string("history") {
            guard path.hasPrefix("/") else {
                throw reader.error(
                    "history",
                    "history = \"\(path)\" must be an absolute path, such as \"/var/lib/plumscale-web/history.sqlite\"")
            }
            settings.historyPath = path
        }
        settings.retentionDays = try reader.int("retention_days", in: 1...3650, unit: "days") ?? 90
        settings.historyCommitSeconds =
            try reader.int("history_commit_seconds", in: 1...600, unit: "seconds") ?? defaultHistoryCommitSeconds
        settings.loginBackoffSeconds =
            try reader.int("login_backoff_seconds", in: 1...86_400, unit: "seconds") ?? 60
        if let hosts = try reader.strings("allowed_hosts") {
            for host in hosts where host.isEmpty || host.contains(where: { " /@".contains($0) }) {
                throw reader.error(
                    "allowed_hosts",
                    "allowed_hosts has \"\(host)\", which is no host name; list names such as \"scale.local\" "
                        + "or \"scale.example:443\"")
            }
            settings.allowedHosts = hosts.map { $0.lowercased() }
        }
        if let proxy = try reader.string("trusted_proxy") {
            guard !proxy.isEmpty, proxy.allSatisfy({ $0.isHexDigit || $0 == "." || $0 == ":" }) else {
                throw reader.error(
                    "trusted_proxy",
                    "trusted_proxy = \"\(proxy)\" is no IP address; write the proxy's, such as \"127.0.0.1\"")
            }
            settings.trustedProxy = proxy.lowercased()
        }
        settings.cookieSecure = try reader.bool("cookie_secure") ?? false
        settings.maxWatchers = try reader.int("max_watchers", in: 1...10_000, unit: "watchers") ?? 100
        if let path = try reader.string("setup_socket") {
            guard path.hasPrefix("/") else {
                throw reader.error(
                    "setup_socket",
                    "setup_socket = \"\(path)\" must be an absolute path, such as \"\(defaultSetupSocket)\"")
            }
            settings.setupSocket = path
        }
        try reader.rejectUnknownKeys()
        return settings
    }
}

/// `HOST:PORT` for a listening socket; an IPv6 host is written in brackets, `[::1]:8385`.
package struct WebListenAddress: Hashable, Sendable, CustomStringConvertible {
    package var host: String
    package var port: Int

    package init(host: String, port: Int) {
        self.host = host
        self.port = port
    }

    /// Parses `HOST:PORT`; nil when it is not one.
    package init?(_ text: String) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]),
            (1...65535).contains(port)
        else { return nil }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" }) else { return nil }
        self.init(host: host, port: port)
    }

    /// Whether only this machine can connect.
    package var isLoopback: Bool { host == "localhost" || host == "::1" || host.hasPrefix("127.") }

    package var description: String { host.contains(Character(":")) ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
