import PlumDaemonConfig
import PlumSettings
import Testing

@Suite("[web] configuration")
struct WebSettingsTests {
    @Test("the keys are read, and a file without [web] gives the defaults")
    func keys() throws {
        let settings = try WebSettings.parse(
            """
            [web]
            listen = "[::1]:9000"
            lan_read_only = true
            auth_file = "/etc/plumscale/pw"
            history = "/srv/h.sqlite"
            retention_days = 30
            history_commit_seconds = 1
            login_backoff_seconds = 5
            allowed_hosts = ["Scale.local", "scale.example:443"]
            trusted_proxy = "127.0.0.1"
            cookie_secure = true
            max_watchers = 250
            """, file: "p.toml")
        #expect(settings.loginBackoffSeconds == 5, "the back-off is configurable")
        #expect(settings.allowedHosts == ["scale.local", "scale.example:443"], "names compare in lower case")
        #expect(settings.trustedProxy == "127.0.0.1" && settings.cookieSecure && settings.maxWatchers == 250)
        #expect(settings.listen == WebListenAddress(host: "::1", port: 9000) && settings.listen.isLoopback)
        #expect(settings.lanReadOnly && settings.authFile == "/etc/plumscale/pw")
        #expect(settings.historyPath == "/srv/h.sqlite" && settings.retentionDays == 30)
        #expect(settings.historyCommitSeconds == 1, "1: each placement written within a second")
        let defaults = try WebSettings.parse("[scale]\ncapacity_grams = 385\n", file: "p.toml")
        #expect(defaults == WebSettings(), "no [web] table: the defaults")
        #expect(defaults.listen.description == "127.0.0.1:8385" && defaults.retentionDays == 90)
        #expect(defaults.historyCommitSeconds == 90, "the delay docs/PERFORMANCE.md measures the card's writes with")
    }

    struct BadCase: Sendable, CustomStringConvertible {
        var text: String
        var expected: String
        var description: String { expected }
    }

    @Test(
        "a bad key or value names the file, the line and what to write",
        arguments: [
            BadCase(
                text: "[web]\nlisten = \"127.0.0.1:8385\"\nlisen = 1\n",
                expected: "site.toml:3: web.lisen: unknown key lisen; allowed here: "),
            BadCase(
                text: "[web]\n\nlisten = \"8385\"\n",
                expected: "site.toml:3: web.listen: listen = \"8385\" is not HOST:PORT"),
            BadCase(
                text: "[web]\nretention_days = 0\n",
                expected: "site.toml:2: web.retention_days: retention_days = 0 is out of range"),
            BadCase(
                text: "[web]\nhistory_commit_seconds = 3600\n",
                expected: "site.toml:2: web.history_commit_seconds: history_commit_seconds = 3600 is out of range; "
                    + "use 1 to 600 seconds"),
            BadCase(
                text: "[web]\nauth_file = \"pw\"\n",
                expected: "site.toml:2: web.auth_file: auth_file = \"pw\" must be an absolute path"),
            BadCase(
                text: "[web]\nlan_read_only = \"yes\"\n",
                expected: "site.toml:2: web.lan_read_only: expected true or false")
        ])
    func badKeys(_ bad: BadCase) {
        #expect {
            try WebSettings.parse(bad.text, file: "site.toml")
        } throws: { error in
            "\(error)".hasPrefix(bad.expected)
        }
    }

    @Test("plumscaled's parser accepts a [web] table and refuses a typo in it")
    func daemonAcceptsWeb() throws {
        let sensor = "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n"
        let config = try PlumConfiguration.parse(sensor + "[web]\nlisten = \"127.0.0.1:8385\"\n", file: "p.toml")
        #expect(config.sensors.map(\.name) == ["pan"])
        #expect(throws: ConfigurationError.self, "a typo under [web] fails the daemon's check too") {
            try PlumConfiguration.parse(sensor + "[web]\nlisen = 1\n", file: "p.toml")
        }
    }
}
