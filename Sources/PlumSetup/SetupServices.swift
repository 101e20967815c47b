import Foundation
import PlumProbe
import PlumProtocol
import PlumSettings

#if canImport(Glibc)
    import Glibc
#endif

/// Step (f) and (g) of `plumscale setup`: the Home Assistant bridge, the web page and the
/// display, when they are installed, and where to find them afterwards.
extension SetupWizard {
    /// The units setup set up, to enable and start.
    struct Services {
        var units: [String] = []
    }

    /// Sets up plumscale-mqtt, plumscale-web and plumscale-display when installed: their sections
    /// in `plan`, their passwords in credentials (root's, mode 0600, written atomically). The
    /// probe's `report` says which displays to offer.
    func setUpServices(_ plan: inout SetupConfiguration, report: HardwareReport) throws -> Services {
        var services = Services()
        if let mqtt = try setUpMQTT() {
            plan.mqtt = mqtt
            services.units.append("plumscale-mqtt.service")
        }
        if let (listen, lanReadOnly) = try setUpWeb() {
            plan.webListen = listen
            plan.webLanReadOnly = lanReadOnly
            // The page refuses a Host it does not know (DNS rebinding); the URL setup prints names this one.
            if let address = WebListenAddress(listen), Self.listensEverywhere(address) {
                plan.webAllowedHosts = [Self.hostName(), Self.hostName() + ".local"]
            }
            services.units.append("plumscale-web.service")
        }
        if let display = try setUpDisplay(report) {
            plan.display = display
            services.units.append(Self.displayUnit)
        }
        return services
    }

    private func setUpMQTT() throws -> SetupConfiguration.MQTT? {
        guard system.installed("plumscale-mqtt", variable: "PLUMSCALE_MQTT_BINARY") != nil else {
            say("mqtt: plumscale-mqtt is not installed; skipped (sudo apt install plumscale-mqtt, then setup again)")
            return nil
        }
        let answers = self.answers?.mqtt
        if self.answers != nil, answers?.enable != true {
            say("mqtt: skipped (no [mqtt] with enable = true in the answers)")
            return nil
        }
        var mqtt = SetupConfiguration.MQTT(host: "localhost", port: 1883)
        if let host = answers?.host {
            mqtt.host = host
            mqtt.port = answers?.port ?? 1883
        } else if SetupSystem.accepts(host: "localhost", port: 1883) {
            say("mqtt: found a broker on localhost:1883")
        } else if interactive {
            guard let reply = ask("No broker on localhost:1883. The broker's host[:port] (Enter to skip MQTT):"),
                !reply.isEmpty
            else {
                say("mqtt: skipped")
                return nil
            }
            let parts = reply.split(separator: ":")
            guard parts.count <= 2, let port = parts.count == 2 ? Int(parts[1]) : 1883, (1...65535).contains(port)
            else {
                throw SetupFailure(.configuration, "'\(reply)' is not host or host:port, such as broker.lan:1883")
            }
            (mqtt.host, mqtt.port) = (String(parts[0]), port)
        } else {
            throw SetupFailure(
                .configuration,
                "mqtt: no broker answers on localhost:1883 and the answers' [mqtt] names no host; install one "
                    + "(sudo apt install mosquitto), or set host (and port) in [mqtt]")
        }
        if !SetupSystem.accepts(host: mqtt.host, port: mqtt.port) {
            say("mqtt: note: nothing answers on \(mqtt.host):\(mqtt.port) yet; the bridge retries until it does")
        }
        var password: String?
        if interactive {
            mqtt.username = ask("The broker's username (Enter for none):").flatMap { $0.isEmpty ? nil : $0 }
            if mqtt.username != nil { password = SetupSystem.readSecret(prompt: "The broker's password: ") }
            let id = ask("This scale's id in Home Assistant: letters, digits, _ and - (Enter: from the machine id):")
            mqtt.scaleID = id.flatMap { $0.isEmpty ? nil : $0 }
        } else {
            mqtt.username = answers?.username
            mqtt.scaleID = answers?.scaleID
            if let file = answers?.passwordFile { password = try firstLine(of: file, what: "[mqtt] password_file") }
        }
        if let password {
            try writeCredential(ServiceCredential.mqttPassword, password)
        }
        say(
            "mqtt: [mqtt] host \(mqtt.host), port \(mqtt.port)" + (mqtt.username.map { ", username \($0)" } ?? "")
                + (password == nil ? "" : "; password in \(credentialsDirectory)/\(ServiceCredential.mqttPassword)"))
        return mqtt
    }

    /// The listen address and, when it reaches beyond this machine, `lan_read_only`, once the
    /// password's hash is in its credential. This machine alone by default (127.0.0.1:8385);
    /// beyond it, other machines read but do not log in unless the person or the answers say so.
    private func setUpWeb() throws -> (String, Bool?)? {
        guard let binary = system.installed("plumscale-web", variable: "PLUMSCALE_WEB_BINARY") else {
            say("web: plumscale-web is not installed; skipped (sudo apt install plumscale-web, then setup again)")
            return nil
        }
        let answers = self.answers?.web
        if self.answers != nil, answers?.enable != true {
            say("web: skipped (no [web] with enable = true in the answers)")
            return nil
        }
        var listen = answers?.listen ?? "127.0.0.1:8385"
        var lanReadOnly = answers?.lanReadOnly
        let password: String
        if interactive {
            let reply =
                ask("Where the page listens [127.0.0.1:8385, this machine only; 0.0.0.0:8385 for every address]:") ?? ""
            if !reply.isEmpty { listen = reply }
            if let address = WebListenAddress(listen), !Self.isLoopback(address) {
                let logins = ask("May other machines log in and change the scale, not only read it? [y/N]:") ?? ""
                lanReadOnly = !["y", "yes"].contains(logins.lowercased())
            }
            guard let first = SetupSystem.readSecret(prompt: "A password for the page (10 characters or more): "),
                let again = SetupSystem.readSecret(prompt: "Again: ")
            else { throw SetupFailure(.refused, "no password given; the web page was not set up") }
            guard first == again else { throw SetupFailure(.refused, "the two passwords differ; run setup again") }
            password = first
        } else {
            guard let file = answers?.passwordFile else {
                throw SetupFailure(
                    .configuration, "[web] has no password_file; name a file holding the page's password in plain text")
            }
            password = try firstLine(of: file, what: "[web] password_file")
        }
        guard WebListenAddress(listen) != nil else {
            throw SetupFailure(
                .configuration,
                "listen = \"\(listen)\" is not HOST:PORT; use such as \"0.0.0.0:8080\" or \"127.0.0.1:8385\"")
        }
        // plumscale-web hashes it: the CLI does not link the web stack, and one program owns the format.
        let result = try SetupSystem.run(binary, ["hash-password"], input: password + "\n")
        let hash = result.output.trimmingCharacters(in: .whitespacesAndNewlines)
        guard result.status == 0, !hash.isEmpty else {
            throw SetupFailure(
                .configuration,
                "\(binary) hash-password refused the password: "
                    + result.error.trimmingCharacters(in: .whitespacesAndNewlines))
        }
        try writeCredential(ServiceCredential.webPassword, hash)
        if let address = WebListenAddress(listen), !Self.isLoopback(address) {
            lanReadOnly = lanReadOnly ?? true
        } else {
            lanReadOnly = nil
        }
        say(
            "web: [web] listen \(listen)" + (lanReadOnly == true ? ", other machines read only (lan_read_only)" : "")
                + "; the password's hash in \(credentialsDirectory)/\(ServiceCredential.webPassword)"
        )
        return (listen, lanReadOnly)
    }

    /// Enables and (re)starts the services' units, or says how to.
    func startServices(_ services: Services) throws {
        for unit in services.units {
            if system.unitExists(unit) {
                _ = try system.systemctl(["enable", unit])
                _ = try system.systemctl(["restart", unit])
                say("services: enabled and restarted \(unit)")
            } else {
                say("services: \(unit) not started by setup; run: sudo systemctl enable --now \(unit)")
            }
        }
    }

    /// (g): the page's URL and the Home Assistant device the bridge creates.
    func tellWhereToLook(_ plan: SetupConfiguration, services: Services) {
        if let listen = plan.webListen.flatMap(WebListenAddress.init) {
            let host = Self.listensEverywhere(listen) ? Self.hostName() : listen.host
            let shown = host.contains(":") ? "[\(host)]" : host
            say("open: http://\(shown):\(listen.port)/")
        }
        if let mqtt = plan.mqtt {
            let machineID = try? String(contentsOfFile: "/etc/machine-id", encoding: .utf8)
            if let id = HomeAssistantDeviceName.scaleID(configured: mqtt.scaleID, machineID: machineID) {
                say(
                    "home assistant: the device \"\(HomeAssistantDeviceName.deviceName(scaleID: id))\" "
                        + "(MQTT integration)"
                )
            }
        }
        say("done")
    }

    /// Whether only this machine reaches `address` (127.0.0.0/8, ::1, localhost).
    static func isLoopback(_ address: WebListenAddress) -> Bool {
        address.host == "localhost" || address.host == "::1" || address.host.hasPrefix("127.")
    }

    static func listensEverywhere(_ address: WebListenAddress) -> Bool {
        ["0.0.0.0", "::", "*"].contains(address.host)
    }

    static func hostName() -> String {
        var buffer = [CChar](repeating: 0, count: 256)
        guard gethostname(&buffer, buffer.count - 1) == 0 else { return "localhost" }
        return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The first line of a file the answers name.
    private func firstLine(of path: String, what: String) throws -> String {
        let text: String
        do { text = try ConfigurationFile.text(at: path) } catch {
            throw SetupFailure(.configuration, "\(what): \(error)")
        }
        let line = String(text.split(separator: "\n", omittingEmptySubsequences: false).first ?? "")
        guard !line.isEmpty else {
            throw SetupFailure(.configuration, "\(what): \(path) is empty; write the password in it")
        }
        return line
    }

    /// A credential, root's and mode 0600 as systemd's LoadCredential= wants its source.
    private func writeCredential(_ name: String, _ secret: String) throws {
        do { try SetupFile(path: credentialsDirectory + "/" + name).write(secret + "\n", mode: 0o600) } catch {
            throw SetupFailure(.service, error.description)
        }
    }
}
