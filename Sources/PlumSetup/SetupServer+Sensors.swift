import PlumDaemonConfig

/// What a request's sensors may say: read by the answers' own reader, and checked first so
/// that a request names no file for the root-run service to open (docs/web.md, "The first run").
extension SetupServer {
    /// The request's `sensors` as setup's answers, read by the answers' own reader: the same
    /// keys, types and checks as `--answers`.
    static func answers(_ sensors: SetupWire?, request: String, iioRoot: String) throws -> SetupAnswers {
        guard case .list(let list)? = sensors, !list.isEmpty else {
            throw Refusal(
                "\(request): sensors must be a list of one or more sensors, such as "
                    + "[{\"name\":\"pan\",\"kind\":\"hx711\",\"chip\":\"gpiochip0\",\"dout\":\"GPIO5\","
                    + "\"sck\":\"GPIO6\",\"rate\":10}] (a probe's choices give them)")
        }
        var toml: [String] = []
        for (index, item) in list.enumerated() {
            guard case .object(let members) = item else {
                throw Refusal("\(request): sensor \(index + 1) is not an object with name, kind and its keys")
            }
            toml.append("[[sensor]]")
            for key in members.keys.sorted() {
                guard !key.isEmpty, key.utf8.allSatisfy({ Self.bareKey.contains($0) }) else {
                    throw Refusal(
                        "\(request): sensor \(index + 1) has the key \(SetupWire.string(key).line); keys are "
                            + "letters, digits, '_' and '-'")
                }
                if let problem = Self.keyProblem(key, members[key], iioRoot: iioRoot) {
                    throw Refusal("\(request): sensor \(index + 1)'s \(problem)")
                }
                guard let value = members[key]?.answer else {
                    throw Refusal(
                        "\(request): sensor \(index + 1)'s \(key) must be a string, a number, true or false")
                }
                toml.append("\(key) = \(value.toml)")
            }
        }
        do {
            return try SetupAnswers.parse(toml.joined(separator: "\n") + "\n", file: "the request's sensors")
        } catch {
            throw Refusal("\(request): \(error)")
        }
    }

    /// What is wrong with a GPIO chip named in a request, or nil: a chip's name (`gpiochip0`),
    /// its label (`pinctrl-rp1`) or `/dev/gpiochipN`, never another path. Setup runs as root,
    /// and opening any file as "the chip" would tell the asker whether it exists.
    static func chipProblem(_ chip: String) -> String? {
        let digits = Set("0123456789".utf8)
        if chip.hasPrefix("/") {
            let number = chip.utf8.dropFirst("/dev/gpiochip".utf8.count)
            if chip.hasPrefix("/dev/gpiochip"), !number.isEmpty, number.count <= 4, number.allSatisfy(digits.contains) {
                return nil
            }
            return "\(SetupWire.string(chip).line) is a path other than /dev/gpiochipN; give /dev/gpiochip0, "
                + "a chip's name such as \"gpiochip0\", or its label such as \"pinctrl-bcm2711\""
        }
        let allowed = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-.:,@".utf8)
        guard !chip.isEmpty, chip.utf8.count <= 64, chip.utf8.allSatisfy(allowed.contains), chip != ".", chip != ".."
        else {
            return "\(SetupWire.string(chip).line) is not a chip's name or label; give one such as \"gpiochip0\" "
                + "or \"pinctrl-bcm2711\" (gpiodetect lists them), or /dev/gpiochip0"
        }
        return nil
    }

    /// What is wrong with a sensor key a request gives, or nil. Files are the terminal's to
    /// name: a simulated sensor's `load_file` is refused, an IIO `root` may only be the tree
    /// this server probes itself (`iioRoot`, which its probe's choices carry), a chip must be
    /// one (``chipProblem(_:)``), and a bus a number or `/dev/i2c-N`.
    static func keyProblem(_ key: String, _ value: SetupWire?, iioRoot: String) -> String? {
        switch (key, value) {
        case ("root", .string(let root)?) where root == iioRoot:
            return nil
        case ("load_file", _), ("root", _):
            return "\(key) names a file, which the web page may not choose; leave it out (run sudo plumscale "
                + "setup on the scale for a sensor that needs one)"
        case ("chip", .string(let chip)?):
            return chipProblem(chip).map { "chip \($0)" }
        case ("bus", .string(let bus)?):
            let number = bus.hasPrefix("/dev/i2c-") ? String(bus.dropFirst("/dev/i2c-".count)) : bus
            guard !number.isEmpty, number.count <= 4, number.allSatisfy(\.isASCII), Int(number) != nil else {
                return
                    "bus \(SetupWire.string(bus).line) is neither a bus number nor /dev/i2c-N; give 1 or \"/dev/i2c-1\""
            }
            return nil
        default:
            return nil
        }
    }

    fileprivate static let bareKey = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-".utf8)
}
