import ArgumentParser
import PlumClient
import PlumCore
import PlumProtocol

/// `plumscale tare`'s preset and named tares: a known weight, or a container kept by name in the
/// daemon's library, so a bowl weighed once is tared by name ever after, full or empty.
struct TareLibraryOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Set this tare in grams, whatever is on the pan.", valueName: "grams"))
    var preset: Double?

    @Option(help: ArgumentHelp("Set the named tare as the tare (see --list).", valueName: "name"))
    var use: String?

    @Option(
        help: ArgumentHelp(
            "Keep the tare in use on the sensor (or --grams) under this name.", valueName: "name"))
    var save: String?

    @Option(help: ArgumentHelp("With --save: the container's weight, instead of the tare in use.", valueName: "grams"))
    var grams: Double?

    @Flag(help: "List the named tares.")
    var list = false

    @Option(help: ArgumentHelp("Forget a named tare.", valueName: "name"))
    var delete: String?

    /// No library option given: a plain tare of the present load.
    var isEmpty: Bool { preset == nil && use == nil && save == nil && grams == nil && !list && delete == nil }

    func validate(sensors: [String]) throws {
        let chosen = [preset != nil, use != nil, save != nil, list, delete != nil].filter { $0 }.count
        guard chosen <= 1 else {
            throw ValidationError("give one of --preset, --use, --save, --list and --delete.")
        }
        if grams != nil, save == nil { throw ValidationError("--grams goes with --save NAME.") }
        if let grams, !(grams.isFinite && grams > 0) {
            throw ValidationError("--grams must be more than 0, not \(grams).")
        }
        if let preset, !preset.isFinite { throw ValidationError("--preset must be a number of grams.") }
        if save != nil, grams == nil, sensors.count > 1 {
            throw ValidationError("--save keeps the tare of one sensor; name one --sensor, or give --grams.")
        }
        if list || delete != nil || (save != nil && grams != nil), !sensors.isEmpty {
            throw ValidationError("the tare library is the daemon's, for every pan; leave out --sensor.")
        }
    }

    /// Carries out the option given on `sensors` (every sensor when empty, for --preset and
    /// --use; the only one, for --save without --grams).
    func carryOut(sensors: [String], client: ClientOptions) throws {
        let connection = try client.connect()
        let refused = try CommandError.exitOnFailure { () throws -> Int in
            if list || delete != nil || save != nil {
                try library(connection, sensors: sensors)
                return 0
            }
            var refused = 0
            for name in try connection.sensors(sensors).map(\.sensor) {
                let reply =
                    if let use { try connection.useTare(use, sensor: name) } else {
                        try connection.presetTare(sensor: name, grams: preset ?? 0)
                    }
                if reply.ok {
                    let named = use.map { " (\($0))" } ?? ""
                    print(
                        "\(name): tare \(FixedPoint.text(reply.tare ?? 0, decimals: 1)) g\(named); showing net weight")
                } else {
                    refused += 1
                    printError("\(name): \(reply.message ?? "tare refused")")
                }
            }
            return refused
        }
        if refused > 0 { throw ExitStatus.refused }
    }

    private func library(_ connection: DaemonClient, sensors: [String]) throws {
        let report: TareLibraryReport
        if let save {
            if let grams {
                report = try connection.tares(.save(name: save, sensor: nil, grams: grams))
            } else {
                let sensor = try connection.sensors(sensors)
                guard sensor.count == 1 else {
                    throw CommandError(.usage, "--save keeps the tare of one sensor; name it with --sensor")
                }
                report = try connection.tares(.save(name: save, sensor: sensor[0].sensor, grams: nil))
            }
        } else if let delete {
            report = try connection.tares(.delete(name: delete))
        } else {
            report = try connection.tares()
        }
        if let save, let kept = report.tares.first(where: { $0.name == save }) {
            print("saved \"\(save)\": \(FixedPoint.text(kept.grams, decimals: 1)) g")
        } else if let delete {
            print("deleted \"\(delete)\"")
        } else if report.tares.isEmpty {
            print("no named tares; save one with plumscale tare --save NAME")
        }
        if list {
            let width = report.tares.map(\.name.count).max() ?? 0
            for tare in report.tares {
                let pad = String(repeating: " ", count: width - tare.name.count)
                print("\(tare.name)\(pad)  \(FixedPoint.text(tare.grams, decimals: 1)) g")
            }
        }
    }
}
