import PlumDaemonConfig
import PlumSettings

/// What `plumscale setup` writes into plumscale.toml, and the file it renders from it: every
/// section with a comment that says what it is and where docs/configuration.md describes it.
///
/// Setup owns `[[sensor]]`; `[cue]`, `[[button]]`, the groups in `[daemon]`, and `[mqtt]`,
/// `[web]` and `[display]` only when it writes them. Every other section of an existing file (`[scale]`,
/// `[[alert]]`, `[[class]]`, a `[daemon]`'s socket …) and every key it is not given (a group the
/// answers leave out, a `scale_id`) is kept as it was, so that running setup again to change a
/// sensor does not lose what was tuned by hand.
struct SetupConfiguration: Equatable {
    var sensors: [SetupAnswers.Sensor] = []
    var socketGroup: String?
    var adminGroup: String?
    var cue: [SetupAnswers.Entry]?
    var buttons: [[SetupAnswers.Entry]] = []
    var mqtt: MQTT?
    /// `[web] listen`, when setup sets the web page up.
    var webListen: String?
    /// `[web] lan_read_only`, written when the page listens beyond this machine.
    var webLanReadOnly: Bool?
    /// `[web] allowed_hosts`: the names the printed URL uses.
    var webAllowedHosts: [String] = []
    /// `[display]`, when setup sets plumscale-display up.
    var display: Display?

    /// The `[mqtt]` keys setup writes; the password goes into a credential, never here.
    struct MQTT: Equatable {
        var host: String
        var port: Int
        var username: String?
        var scaleID: String?
    }

    /// The `[display]` keys setup writes. The others (contrast, backlight, sensors,
    /// alternate_seconds) are kept from the existing file.
    struct Display: Equatable {
        var kind: String
        var bus: Int?
        var address: Int?
        var size: String?
        var device: String?
        var rotate = 0
        var frameFile: String?

        /// The keys setup owns in `[display]`: rewritten, or left out for a kind that takes none.
        static let ownedKeys: Set<String> = ["kind", "bus", "address", "size", "device", "rotate", "frame_file"]

        /// The table's lines, the address in hex as i2cdetect shows it.
        var lines: [String] {
            var lines = ["kind = \(AnswerValue.quoted(kind))"]
            lines += bus.map { ["bus = \($0)"] } ?? []
            lines += address.map { ["address = \(Self.hex($0))"] } ?? []
            lines += size.map { ["size = \(AnswerValue.quoted($0))"] } ?? []
            lines += device.map { ["device = \(AnswerValue.quoted($0))"] } ?? []
            lines.append("rotate = \(rotate)")
            lines += frameFile.map { ["frame_file = \(AnswerValue.quoted($0))"] } ?? []
            return lines
        }

        /// "0x3C".
        static func hex(_ value: Int) -> String {
            let digits = String(value, radix: 16, uppercase: true)
            return "0x" + String(repeating: "0", count: max(0, 2 - digits.count)) + digits
        }

        /// "ssd1306, bus 1, address 0x3C, size 128x64, rotate 0", for the line setup prints.
        var summary: String {
            var parts = [kind]
            parts += bus.map { ["bus \($0)"] } ?? []
            parts += address.map { ["address \(Self.hex($0))"] } ?? []
            parts += size.map { ["size \($0)"] } ?? []
            parts += device.map { ["device \($0)"] } ?? []
            parts.append("rotate \(rotate)")
            parts += frameFile.map { ["frame_file \($0)"] } ?? []
            return parts.joined(separator: ", ")
        }
    }

    /// The configuration as commented TOML, keeping the sections of `existing` setup does not own.
    func render(keeping existing: String? = nil) -> String {
        let old = existing.map(Self.blocks) ?? []
        var out = [
            """
            # PlumScale's configuration, written by `plumscale setup`. Every key is described in
            # docs/configuration.md. Run `sudo plumscale setup` again to change the sensors and the
            # services, or edit this file and run `sudo systemctl restart plumscaled`.
            """
        ]
        var daemon = [
            """
            # [daemon]: who may use the scale. Members of socket_group may read it; members of
            # admin_group may also tare, zero and calibrate (docs/configuration.md, "[daemon]").
            [daemon]
            """
        ]
        daemon += socketGroup.map { ["socket_group = \(AnswerValue.quoted($0))"] } ?? []
        daemon += adminGroup.map { ["admin_group = \(AnswerValue.quoted($0))"] } ?? []
        // A key setup is not given (a group the answers leave out, a scale_id) is kept as it was.
        let groups = [socketGroup.map { _ in "socket_group" }, adminGroup.map { _ in "admin_group" }]
        daemon += Self.keptKeys(of: old, header: "[daemon]", without: Set(groups.compactMap { $0 }))
        if daemon.count > 1 { out.append(daemon.joined(separator: "\n")) }
        for sensor in sensors {
            var lines = [
                "# [[sensor]] \"\(sensor.name)\": \(Self.what(sensor.kind)) (docs/configuration.md, \"[[sensor]]\").",
                "[[sensor]]",
                "name = \(AnswerValue.quoted(sensor.name))",
                "kind = \(AnswerValue.quoted(sensor.kind.rawValue))"
            ]
            lines += sensor.keys.map { "\($0.key) = \($0.value.toml)" }
            out.append(lines.joined(separator: "\n"))
        }
        if let cue {
            out.append(
                ([
                    "# [cue]: the buzzer or haptic driver that sounds on tare and alerts (docs/configuration.md).",
                    "[cue]"
                ]
                    + cue.map { "\($0.key) = \($0.value.toml)" }).joined(separator: "\n"))
        }
        for button in buttons {
            out.append(
                ([
                    "# [[button]]: a push button; a short press tares, a long press zeroes (docs/configuration.md).",
                    "[[button]]"
                ] + button.map { "\($0.key) = \($0.value.toml)" }).joined(separator: "\n"))
        }
        if let mqtt {
            var lines = [
                "# [mqtt]: the Home Assistant bridge, plumscale-mqtt. Its password is the credential",
                "# /etc/plumscale/credentials/mqtt-password, not a key here (docs/configuration.md, \"[mqtt]\").",
                "[mqtt]",
                "host = \(AnswerValue.quoted(mqtt.host))",
                "port = \(mqtt.port)"
            ]
            lines += mqtt.username.map { ["username = \(AnswerValue.quoted($0))"] } ?? []
            lines += mqtt.scaleID.map { ["scale_id = \(AnswerValue.quoted($0))"] } ?? []
            let given = [mqtt.username.map { _ in "username" }, mqtt.scaleID.map { _ in "scale_id" }]
            lines += Self.keptKeys(
                of: old, header: "[mqtt]", without: Set(["host", "port"] + given.compactMap { $0 }))
            out.append(lines.joined(separator: "\n"))
        }
        if let webListen {
            var lines = [
                "# [web]: the web page, plumscale-web. Its password's hash is the credential",
                "# /etc/plumscale/credentials/web-password (docs/configuration.md, \"[web]\").",
                "[web]",
                "listen = \(AnswerValue.quoted(webListen))"
            ]
            if let webLanReadOnly {
                if webLanReadOnly {
                    lines.append(
                        "# Other machines may read the page, but only this one may log in and change the scale.")
                }
                lines.append("lan_read_only = \(webLanReadOnly)")
            }
            if !webAllowedHosts.isEmpty {
                lines.append("allowed_hosts = \(AnswerValue.list(webAllowedHosts.map { .string($0) }).toml)")
            }
            var written = ["listen", "allowed_hosts"]
            if webLanReadOnly != nil { written.append("lan_read_only") }
            lines += Self.keptKeys(of: old, header: "[web]", without: Set(written))
            out.append(lines.joined(separator: "\n"))
        }
        if let display {
            var lines = [
                "# [display]: the scale's own display, drawn by plumscale-display (docs/display.md).",
                "[display]"
            ]
            lines += display.lines
            lines += Self.keptKeys(of: old, header: "[display]", without: Display.ownedKeys)
            out.append(lines.joined(separator: "\n"))
        }
        var owned: Set<String> = ["[daemon]", "[[sensor]]"]
        if cue != nil { owned.insert("[cue]") }
        if !buttons.isEmpty { owned.insert("[[button]]") }
        if mqtt != nil { owned.insert("[mqtt]") }
        if webListen != nil { owned.insert("[web]") }
        if display != nil { owned.insert("[display]") }
        // Sub-tables of an owned array ([sensor.x]) go with it.
        for block in old where !owned.contains(block.header ?? "") && block.header.map(isOwnedChild) != true {
            guard block.header != nil else { continue }  // the old preamble: the new one replaces it
            out.append(block.lines.joined(separator: "\n"))
        }
        return out.joined(separator: "\n\n") + "\n"

        func isOwnedChild(_ header: String) -> Bool {
            owned.contains { header.hasPrefix($0.dropLast($0.hasPrefix("[[") ? 2 : 1) + ".") }
        }
    }

    /// A sensor kind in words, for its section's comment.
    static func what(_ kind: SourceKind) -> String {
        switch kind {
        case .hx711: "a load cell on an HX711, read through the GPIO lines"
        case .ads1115: "an ADS1115 channel on I2C (an FSR in a divider)"
        case .iio: "a sensor read through the kernel's IIO driver"
        case .simulatedHX711: "a simulated HX711, for trying PlumScale without hardware"
        case .simulatedFSR: "a simulated FSR, for trying PlumScale without hardware"
        case .replay: "a recorded trace, replayed"
        }
    }

    /// One top-level section of a TOML text: its header (`[scale]`, `[[sensor]]`; nil for the
    /// lines before the first) and its lines, with the comment lines just above the header.
    struct Block: Equatable {
        var header: String?
        var lines: [String]
    }

    /// Splits TOML text at its table headers. A multi-line string holding a line that starts
    /// with `[` would be split wrongly; the configuration has no multi-line strings.
    static func blocks(_ text: String) -> [Block] {
        var blocks = [Block(header: nil, lines: [])]
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard trimmed.hasPrefix("[") else {
                blocks[blocks.count - 1].lines.append(line)
                continue
            }
            // The comments right above a header belong to it.
            var comments: [String] = []
            while let last = blocks[blocks.count - 1].lines.last, last.drop(while: { $0 == " " }).hasPrefix("#") {
                comments.insert(blocks[blocks.count - 1].lines.removeLast(), at: 0)
            }
            let close = trimmed.hasPrefix("[[") ? "]]" : "]"
            let name = trimmed.prefix { $0 != "#" }.filter { $0 != " " && $0 != "\t" }
            let header = name.hasSuffix(close) ? String(name) : String(trimmed)
            blocks.append(Block(header: header, lines: comments + [line]))
        }
        for index in blocks.indices {
            while let last = blocks[index].lines.last, last.allSatisfy({ $0 == " " || $0 == "\t" }) {
                blocks[index].lines.removeLast()
            }
        }
        return blocks
    }

    /// The assignments of the old `[header]` section except `owned` keys: setup rewrites its
    /// own keys and keeps the rest (its comments go, so that a second run renders the same file).
    static func keptKeys(of blocks: [Block], header: String, without owned: Set<String>) -> [String] {
        guard let block = blocks.first(where: { $0.header == header }) else { return [] }
        return block.lines.filter { line in
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            guard !trimmed.isEmpty, !trimmed.hasPrefix("#"), !trimmed.hasPrefix("[") else { return false }
            let key = trimmed.prefix { $0 != "=" && $0 != " " && $0 != "\t" }
            return !owned.contains(String(key))
        }
    }

    /// Checks `text` with the loaders the services use (the daemon's, and `[mqtt]`'s), so that
    /// a file setup writes always starts them. `file` names the file in errors.
    static func validate(_ text: String, file: String) throws(ConfigurationError) -> PlumConfiguration {
        let configuration = try PlumConfiguration.parse(text, file: file)
        _ = try MQTTBridgeConfiguration.parse(text, file: file)
        return configuration
    }
}
