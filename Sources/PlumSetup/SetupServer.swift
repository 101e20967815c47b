import Foundation
import PlumDaemonConfig
import PlumProbe
import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// `plumscale setup --serve`: one request of the web page's first run, read as a line of JSON
/// on standard input, answered with a line of JSON on standard output, then exit.
///
/// systemd runs it once per connection (`plumscale-setup.socket`, `Accept=yes`), as root, so
/// that plumscale-web, which has no privileges, can offer setup's steps in the browser. The
/// steps are the wizard's own (``SetupWizard``): its probe and choices, its rendering, checking
/// and atomic writing of the configuration, its restart of plumscaled. The requests:
///
/// - `{"request":"state"}`: whether this scale is set up (the file was written by setup and
///   its sensors load) and its sensors.
/// - `{"request":"probe","hx711":{"dout":"GPIO5","sck":"GPIO6"}}`: the hardware found and the
///   sensors setup would offer (`"hx711":false` watches no HX711; absent: the README's pins).
/// - `{"request":"preview","sensors":[{"name":"pan","kind":"hx711",…}]}`: the file setup would
///   write, the diff from the one there, and the `confirm` token of that diff.
/// - `{"request":"apply","sensors":[…],"confirm":"…"}`: writes it (a different file only with
///   the token of the diff the person was shown), restarts plumscaled and waits for it.
///
/// Every reply has `"ok"`; a refusal has `"error"`, saying what was wrong and what to do.
package struct SetupServer {
    /// The wizard whose steps are run: its answers are made from each request.
    var wizard: SetupWizard
    /// Besides root, the group whose members may ask: plumscale-setup, plumscale-web's alone.
    var adminGroup: String

    package init(wizard: SetupWizard, adminGroup: String) {
        self.wizard = wizard
        self.adminGroup = adminGroup
    }

    /// The longest request line read.
    static let requestLimit = 65_536
    /// How long a client has to send its request.
    static let requestTimeout: Int32 = 10_000

    /// Why a request is refused: what was wrong and what to do, as the reply's `error`.
    struct Refusal: Error {
        var message: String
        init(_ message: String) { self.message = message }
    }

    /// Serves the one request on standard input. The wizard's progress lines go to standard
    /// error (the journal), so that standard output carries the reply alone.
    package func serve() -> Int32 {
        fflush(nil)
        guard case .success(let output) = Syscalls.duplicate(1), case .success = Syscalls.redirect(2, onto: 1) else {
            return 1
        }
        let reply: SetupWire
        do {
            try checkPeer()
            let request = try readRequest()
            reply = try answer(request)
        } catch let refusal as Refusal {
            reply = .object(["ok": .bool(false), "error": .string(refusal.message)])
        } catch let failure as SetupFailure {
            reply = .object(["ok": .bool(false), "error": .string(failure.message)])
        } catch {
            reply = .object(["ok": .bool(false), "error": .string("\(error)")])
        }
        fflush(nil)
        defer { Syscalls.closeFile(output) }
        guard case .success = Syscalls.writeWhole(Array((reply.line + "\n").utf8), to: output) else { return 1 }
        return 0
    }

    // MARK: who asks

    /// Refuses a peer that is neither root nor in ``adminGroup``, by the kernel's word on the
    /// connection (`SO_PEERCRED`, `SO_PEERGROUPS`), whatever the socket file's mode. Standard
    /// input that is not a socket (a pipe, a file) is whoever started this process, who could
    /// run setup itself.
    func checkPeer() throws(Refusal) {
        let peer: PeerIdentity
        switch Syscalls.peerCredentials(0) {
        case .success(let value): peer = value
        case .failure(.notSocket): return
        case .failure(let error): throw Refusal("cannot tell who connected (SO_PEERCRED: \(error)); refused")
        }
        if peer.uid == 0 { return }
        guard let wanted = Syscalls.groupID(named: adminGroup) else {
            throw Refusal(
                "uid \(peer.uid) is not root, and the group '\(adminGroup)' does not exist; refused. Run "
                    + "sudo plumscale setup, or create the group (the plumscale package does)")
        }
        if peer.gid == wanted { return }
        if case .success(let groups) = Syscalls.peerGroups(0), groups.contains(wanted) { return }
        throw Refusal(
            "uid \(peer.uid) is neither root nor in the group '\(adminGroup)'; refused. Setup from the web page "
                + "is for plumscale-web (in that group); on a terminal run sudo plumscale setup")
    }

    /// Refuses what would change a scale that is set up already, unless root left its leave
    /// (``WebSetupPermit``): `state` is always answered.
    func checkLeave(for name: String) throws(Refusal) {
        guard name != "state" else { return }
        guard case .object(let state) = state(), case .bool(true)? = state["set_up"] else { return }
        let permit = WebSetupPermit(configPath: wizard.configPath)
        let leave = permit.leave(now: Date().timeIntervalSince1970, owners: [0, geteuid()])
        if case .granted = leave { return }
        var why = ""
        if case .void(let reason) = leave { why = " (the leave there does not count: \(reason))" }
        throw Refusal(
            "\(name): this scale is set up already (\(wizard.configPath) was written by setup), and the web "
                + "page's setup is for the first run\(why); nothing was done. To set it up again from the page, "
                + "run sudo plumscale setup --allow-web on the scale (it allows one apply within "
                + "\(Int(WebSetupPermit.lifetime / 60)) minutes), or run sudo plumscale setup there")
    }

    // MARK: the request

    /// Reads one line (up to ``requestLimit`` bytes, within ``requestTimeout``) and decodes it.
    func readRequest() throws(Refusal) -> [String: SetupWire] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        let deadline = Self.monotonicSeconds() + Double(Self.requestTimeout) / 1000
        while !bytes.contains(UInt8(ascii: "\n")) {
            guard bytes.count <= Self.requestLimit else {
                throw Refusal("the request is longer than \(Self.requestLimit) bytes; send one line of JSON")
            }
            let left = Int(max(0, (deadline - Self.monotonicSeconds()) * 1000))
            guard case .success(true) = Syscalls.waitReadable(0, milliseconds: left) else {
                throw Refusal("no request within \(Self.requestTimeout / 1000) s; send one line of JSON and a newline")
            }
            let read = chunk.withUnsafeMutableBytes { Syscalls.readFile(0, into: $0) }
            guard case .success(let count) = read, count > 0 else { break }
            bytes += chunk[..<count]
        }
        let line = bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).first ?? []
        guard !line.allSatisfy({ $0 == 32 || $0 == 9 || $0 == 13 }) else {
            throw Refusal(
                "the request is empty; send one line of JSON such as {\"request\":\"state\"} "
                    + "(the requests: \(Self.requests.joined(separator: ", ")))")
        }
        guard let value = try? JSONDecoder().decode(SetupWire.self, from: Data(line)) else {
            throw Refusal("the request is not JSON; send one line such as {\"request\":\"state\"}")
        }
        guard case .object(let members) = value else {
            throw Refusal("the request must be a JSON object, such as {\"request\":\"state\"}")
        }
        return members
    }

    static let requests = ["state", "probe", "preview", "apply"]

    /// The keys each request takes besides `request`.
    static let keys: [String: Set<String>] = [
        "state": [], "probe": ["hx711"], "preview": ["sensors"], "apply": ["sensors", "confirm"]
    ]

    func answer(_ request: [String: SetupWire]) throws -> SetupWire {
        guard case .string(let name)? = request["request"] else {
            throw Refusal(
                "the request has no \"request\" name; give one of \(Self.requests.joined(separator: ", ")), "
                    + "such as {\"request\":\"state\"}")
        }
        guard let allowed = Self.keys[name] else {
            throw Refusal("unknown request \"\(name)\"; use one of \(Self.requests.joined(separator: ", "))")
        }
        if let unknown = request.keys.filter({ $0 != "request" && !allowed.contains($0) }).sorted().first {
            let known =
                allowed.isEmpty ? "it takes no other key" : "it takes " + allowed.sorted().joined(separator: ", ")
            throw Refusal("\(name): unknown key \"\(unknown)\"; \(known)")
        }
        try checkLeave(for: name)
        switch name {
        case "state": return state()
        case "probe": return try probe(request["hx711"])
        case "preview": return try preview(request)
        default: return try apply(request)
        }
    }

    // MARK: state

    /// Whether the scale is set up: the configuration exists, setup wrote it (its first line
    /// says so), and it loads with at least one sensor.
    func state() -> SetupWire {
        var reply: [String: SetupWire] = [
            "ok": .bool(true), "config": .string(wizard.configPath), "set_up": .bool(false)
        ]
        let text: String?
        do { text = try SetupFile(path: wizard.configPath).existing() } catch {
            reply["problem"] = .string(error.description)
            return .object(reply)
        }
        reply["exists"] = .bool(text != nil)
        guard let text else {
            reply["problem"] = .string("\(wizard.configPath) does not exist; setup writes it")
            return .object(reply)
        }
        let bySetup = Self.writtenBySetup(text)
        reply["written_by_setup"] = .bool(bySetup)
        do {
            let configuration = try SetupConfiguration.validate(text, file: wizard.configPath)
            reply["sensors"] = .list(
                configuration.sensors.map { .object(["name": .string($0.name), "kind": .string($0.kind.rawValue)]) })
            if configuration.sensors.isEmpty {
                reply["problem"] = .string("\(wizard.configPath) has no [[sensor]]")
            } else if !bySetup {
                reply["problem"] = .string(
                    "\(wizard.configPath) was not written by setup (the package's example, or edited by hand)")
            }
            reply["set_up"] = .bool(bySetup && !configuration.sensors.isEmpty)
        } catch {
            reply["problem"] = .string("\(error)")
        }
        return .object(reply)
    }

    /// Whether `text` begins as ``SetupConfiguration/render(keeping:)`` begins every file.
    static func writtenBySetup(_ text: String) -> Bool {
        text.split(separator: "\n", maxSplits: 1).first?.contains("written by `plumscale setup`") == true
    }

    // MARK: probe

    /// The wizard's probe, and the sensors it would offer. The HX711 is watched on the pins
    /// named (`{"chip":…, "dout":…, "sck":…}`, each optional), the README's when `hx711` is
    /// absent, none when it is false.
    func probe(_ hx711: SetupWire?) throws -> SetupWire {
        var wizard = self.wizard
        switch hx711 {
        case nil: wizard.probePins = .readme
        case .bool(false)?: wizard.probePins = nil
        case .object(let members)?:
            var pins = [String: String]()
            for (key, value) in members {
                guard ["chip", "dout", "sck"].contains(key) else {
                    throw Refusal("probe: hx711 has an unknown key \"\(key)\"; it takes chip, dout and sck")
                }
                if key == "chip", case .string(let text) = value, let problem = Self.chipProblem(text) {
                    throw Refusal("probe: hx711's chip \(problem)")
                }
                switch value {
                case .string(let text) where !text.isEmpty && text.count <= 64: pins[key] = text
                case .int(let number) where number >= 0: pins[key] = String(number)
                default:
                    throw Refusal(
                        "probe: hx711's \(key) must be a line's name or number, such as \"GPIO5\" or 5")
                }
            }
            wizard.probePins = HX711Pins(
                chip: pins["chip"], dout: pins["dout"] ?? HX711Pins.readme.dout,
                sck: pins["sck"] ?? HX711Pins.readme.sck)
        default:
            throw Refusal(
                "probe: hx711 must be the pins to watch, such as {\"dout\":\"GPIO5\",\"sck\":\"GPIO6\"}, or false")
        }
        let stops = wizard.probePins != nil && wizard.system.unitExists("plumscaled.service")
        let report = wizard.probe()
        if stops {
            // The watch stopped the daemon for its lines; it serves the old file again until apply.
            _ = try? wizard.system.systemctl(["start", "plumscaled.socket"])
        }
        let choices = SetupWizard.candidates(report, roots: wizard.roots).map {
            SetupWire.object(["what": .string($0.what), "sensor": SetupWire($0.sensor)])
        }
        return .object([
            "ok": .bool(true), "summary": .string(SetupWizard.summary(report)), "report": try SetupWire.from(report),
            "choices": .list(choices)
        ])
    }

    // MARK: preview and apply

    /// What setup would write for the request's sensors, against the file there now.
    struct Plan {
        var plan: SetupConfiguration
        var existing: String?
        var text: String
        var diff: String
        /// The token that confirms ``diff``; nil when nothing there would be replaced.
        var confirm: String?
    }

    func plan(_ request: [String: SetupWire], for name: String) throws -> (Plan, SetupWizard) {
        var wizard = self.wizard
        wizard.answers = try Self.answers(request["sensors"], request: name, iioRoot: wizard.roots.iioDirectory)
        // No HX711 watch here: the sensors come from the probe's choices with their chip and rate,
        // and the daemon keeps its lines. A sensor that leaves them out gets the wizard's error.
        let report = HardwareReport.probe(wizard.roots, pins: nil, window: wizard.window)
        var plan = try wizard.chooseSensors(report)
        let file = SetupFile(path: wizard.configPath)
        let existing: String?
        do { existing = try file.existing() } catch { throw SetupFailure(.service, error.description) }
        // The groups the terminal wizard proposes, unless the file names its own (kept as they are).
        let kept = SetupConfiguration.keptKeys(
            of: SetupConfiguration.blocks(existing ?? ""), header: "[daemon]", without: [])
        if !kept.contains(where: { $0.hasPrefix("socket_group") }) { plan.socketGroup = "plumscale" }
        if !kept.contains(where: { $0.hasPrefix("admin_group") }) { plan.adminGroup = "plumscale-admin" }
        let text = plan.render(keeping: existing)
        do { _ = try SetupConfiguration.validate(text, file: wizard.configPath) } catch {
            throw Refusal(
                "\(name): the configuration these sensors make does not load, so nothing was written: \(error). "
                    + "Change that sensor's value and preview again")
        }
        let diff = existing.map {
            SetupFile.diff($0, text, oldName: wizard.configPath, newName: wizard.configPath + " (from setup)")
        }
        let confirm = diff.flatMap { $0.isEmpty ? nil : Self.token($0) }
        return (Plan(plan: plan, existing: existing, text: text, diff: diff ?? "", confirm: confirm), wizard)
    }

    func preview(_ request: [String: SetupWire]) throws -> SetupWire {
        let (plan, _) = try plan(request, for: "preview")
        var reply: [String: SetupWire] = [
            "ok": .bool(true), "config": .string(wizard.configPath), "text": .string(plan.text),
            "exists": .bool(plan.existing != nil), "unchanged": .bool(plan.existing == plan.text),
            "diff": .string(plan.diff), "sensors": .list(plan.plan.sensors.map(SetupWire.init))
        ]
        if let confirm = plan.confirm { reply["confirm"] = .string(confirm) }
        return .object(reply)
    }

    func apply(_ request: [String: SetupWire]) throws -> SetupWire {
        var (plan, wizard) = try plan(request, for: "apply")
        if let token = plan.confirm {
            let given: String?
            switch request["confirm"] {
            case .string(let text)?: given = text
            case nil, .null?: given = nil
            default: throw Refusal("apply: confirm must be the string a preview returned")
            }
            guard given == token else {
                throw Refusal(
                    "apply: \(wizard.configPath) differs from what setup would write, and "
                        + (given == nil ? "the request carries no confirm" : "confirm is not that of the diff now")
                        + "; nothing was written. Send preview, show its diff, and apply with the confirm it returns")
            }
        }
        wizard.answers?.overwrite = true
        let written = try wizard.writeConfiguration(plan.plan, ownPrevious: nil)
        // The leave, if one let this apply in, is used up once the file is written.
        WebSetupPermit(configPath: wizard.configPath).revoke()
        try wizard.restartDaemon(written.configuration)
        plan.text = written.text
        return .object([
            "ok": .bool(true), "config": .string(wizard.configPath), "written": .bool(plan.existing != plan.text),
            "sensors": .list(written.configuration.sensors.map { .string($0.name) }),
            "calibrate": .list(written.configuration.sensors.map { .string($0.name) })
        ])
    }

    /// The confirmation of a diff: its FNV-1a 64-bit hash and length. Not a secret (whoever may
    /// ask may preview); it proves that the file replaced is the one whose diff was shown.
    static func token(_ diff: String) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in diff.utf8 {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        let hex = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.count) + hex + "-\(diff.utf8.count)"
    }
}
