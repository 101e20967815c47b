import PlumDrivers
import Testing

@testable import PlumDaemonConfig
@testable import PlumSettings

@Suite("Daemon and cue settings")
struct DaemonSettingsTests {
    let sensor = "\n[[sensor]]\nname = \"s\"\nkind = \"simulated-hx711\"\n"

    @Test("[daemon] and [cue] are read with their defaults")
    func reads() throws {
        let config = try PlumConfiguration.parse(
            """
            [daemon]
            socket = "/run/plumscale/plumscale.sock"
            socket_group = "plumscale"
            tcp = "127.0.0.1:7450"
            mtsics = "[::1]:8001"
            max_clients = 64

            [cue]
            chip = "gpiochip0"
            line = "GPIO18"
            """ + sensor, file: "t.toml")
        #expect(config.daemon.socket == "/run/plumscale/plumscale.sock")
        #expect(
            config.daemon.tcp?.endpoint == .loopback(host: "127.0.0.1", port: 7450), "tcp is a typed loopback endpoint")
        #expect(
            config.daemon.tcp?.position.description == "t.toml:4", "tcp carries the file and line it was written on")
        #expect(
            config.daemon.mtsics?.endpoint == .loopback(host: "::1", port: 8001), "the brackets of [::1] are dropped")
        #expect(config.daemon.mtsics?.description == "[::1]:8001", "an IPv6 listener is shown as written")
        #expect(config.daemon.maxClients == 64)
        #expect(config.daemon.clientQueue == 512)
        #expect(config.daemon.reservedClients == 8)
        #expect(config.daemon.idleTimeoutSeconds == 10)
        #expect(config.cue?.line == .name("GPIO18"))
        #expect(config.cue?.pulseMilliseconds == 150)
        #expect(config.cue?.activeLow == false)
    }

    @Test("reserved_clients and idle_timeout_seconds are read, and out-of-range values are refused by name")
    func slotsAndIdleTimeout() throws {
        let config = try PlumConfiguration.parse(
            "[daemon]\nmax_clients = 32\nreserved_clients = 4\nidle_timeout_seconds = 0\n" + sensor, file: "t.toml")
        #expect(config.daemon.reservedClients == 4)
        #expect(config.daemon.idleTimeoutSeconds == 0)
        for (key, value) in [("reserved_clients", "-1"), ("idle_timeout_seconds", "86401")] {
            #expect {
                try PlumConfiguration.parse("[daemon]\n\(key) = \(value)\n" + sensor, file: "t.toml")
            } throws: { error in
                String(describing: error).contains("t.toml:2: daemon.\(key)")
            }
        }
    }

    @Test("a listener off this machine is refused", arguments: ["0.0.0.0:7450", "192.168.1.5:7450", "7450"])
    func loopbackOnly(endpoint: String) {
        #expect {
            try PlumConfiguration.parse("[daemon]\ntcp = \"\(endpoint)\"\n" + sensor, file: "t.toml")
        } throws: { error in
            let text = String(describing: error)
            return text.contains("t.toml:2: daemon.tcp") && (text.contains("loopback") || text.contains("host:port"))
        }
    }

    @Test("admin_group and mtsics_sensor are read; without them, no admin group and the first sensor")
    func adminGroupAndMTSICSSensor() throws {
        let two = sensor + "\n[[sensor]]\nname = \"right\"\nkind = \"simulated-hx711\"\n"
        let config = try PlumConfiguration.parse(
            """
            [daemon]
            mtsics = "/run/plumscale/mtsics.sock"
            mtsics_sensor = "right"
            admin_group = "plumscale-admin"
            """ + two, file: "t.toml")
        #expect(config.daemon.mtsicsSensor == "right")
        #expect(config.daemon.adminGroup == "plumscale-admin")
        let defaults = try PlumConfiguration.parse("[daemon]\n" + two, file: "t.toml")
        #expect(defaults.daemon.mtsicsSensor == nil)
        #expect(defaults.daemon.adminGroup == nil)
    }

    struct BadDaemonKey: Sendable, CustomTestStringConvertible {
        var what: String
        var line: String
        var mentions: [String]
        var testDescription: String { what }
    }

    @Test(
        "a bad admin_group or mtsics_sensor is refused with file, line, key and what to write",
        arguments: [
            BadDaemonKey(
                what: "a gid instead of a group name", line: "admin_group = \"1001\"",
                mentions: ["t.toml:3: daemon.admin_group", "not a group name", "plumscale-admin"]),
            BadDaemonKey(
                what: "a group name with a space", line: "admin_group = \"plum admins\"",
                mentions: ["t.toml:3: daemon.admin_group", "not a group name"]),
            BadDaemonKey(
                what: "a group as a number", line: "admin_group = 1001",
                mentions: ["t.toml:3: daemon.admin_group", "expected a string"]),
            BadDaemonKey(
                what: "a sensor that is not configured", line: "mtsics_sensor = \"middle\"",
                mentions: ["t.toml:3: daemon.mtsics_sensor", "\"middle\" is not a configured sensor", "\"s\""]),
            BadDaemonKey(
                what: "a typo in mtsics_sensor", line: "mtsics_sensr = \"s\"",
                mentions: ["t.toml:3: daemon.mtsics_sensr", "unknown key", "mtsics_sensor", "admin_group"])
        ])
    func badDaemonKey(_ bad: BadDaemonKey) {
        #expect {
            try PlumConfiguration.parse("[daemon]\nmtsics = \"127.0.0.1:8001\"\n\(bad.line)\n" + sensor, file: "t.toml")
        } throws: { error in
            let text = String(describing: error)
            return bad.mentions.allSatisfy { text.contains($0) }
        }
    }

    @Test("a cue without its line says which key is missing")
    func cueNeedsLine() {
        #expect {
            try PlumConfiguration.parse("[cue]\nchip = \"gpiochip0\"\n" + sensor, file: "t.toml")
        } throws: { error in
            String(describing: error).contains("missing key line")
        }
    }

    @Test("a simulated HX711 takes the sampler's scheduling, as a real one does: it is bit-banged in real time")
    func simulatedSamplerSettings() throws {
        let config = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"sim\"\nkind = \"simulated-hx711\"\nrealtime_priority = 20\nlock_memory = true\n",
            file: "sim.toml")
        #expect(config.sensors[0].wiring.sampler.realtimePriority == 20)
        #expect(config.sensors[0].wiring.sampler.lockMemory == true)
    }
}
