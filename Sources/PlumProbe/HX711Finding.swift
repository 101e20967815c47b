package import PlumHardware

/// The pins an HX711 is watched on: a chip and two lines, as a configuration names them.
package struct HX711Pins: Hashable, Sendable, Encodable {
    /// A chip label, name or path (``GPIOChipSpec``); `nil`: the Pi header's chip, once found.
    package var chip: String?
    /// DOUT (the board's DT) and PD_SCK (its SCK): line names ("GPIO5") or offsets.
    package var dout: String
    package var sck: String

    package init(chip: String?, dout: String, sck: String) {
        self.chip = chip
        self.dout = dout
        self.sck = sck
    }

    /// The README's wiring: DT on pin 29 (GPIO5), SCK on pin 31 (GPIO6), on the header's chip.
    package static let readme = HX711Pins(chip: nil, dout: "GPIO5", sck: "GPIO6")
}

/// An HX711 watched on its pins: what DOUT did and what that means.
package struct HX711Finding: Hashable, Sendable, Encodable, CustomStringConvertible {
    package var pins: HX711Pins
    /// The diagnosis; `nil` when the lines could not be requested (see ``error``).
    package var verdict: HX711Verdict?
    /// Why the watch could not run: no such chip or line, a line in use, no permission.
    package var error: String?
    /// A line was in use (EBUSY): plumscaled, most likely, holds it while it runs.
    package var lineBusy = false
    /// What a first watch saw when it found a problem that a second watch did not: a chip
    /// powered down by the program that held the lines before, or a read-out the machine
    /// delayed past a conversion. `nil` when one watch decided.
    package var firstWatch: String?
    package var falls: Int
    package var strayEdges: Int

    package init(pins: HX711Pins, observation: HX711Observation) {
        self.pins = pins
        verdict = HX711Verdict(observation)
        falls = observation.readyFalls.count
        strayEdges = observation.strayEdges
    }

    package init(pins: HX711Pins, error: HardwareError) {
        self.pins = pins
        self.error = error.description
        lineBusy = error.errno == .deviceBusy
        falls = 0
        strayEdges = 0
    }

    package var isOK: Bool { verdict?.isOK ?? false }

    /// Watches DOUT on real lines through libgpiod: PD_SCK requested as an output held low,
    /// DOUT as an input with both edges, both released when the watch ends.
    ///
    /// A problem is watched a second time before it is reported: a miswired chip fails both
    /// watches alike, while one disturbed window (the lines' last holder left PD_SCK high, a busy
    /// machine held a read-out past the next conversion) does not make an owner rewire a good
    /// chip. When only the first watch saw a problem, ``firstWatch`` says what it saw.
    package static func watch(
        _ pins: HX711Pins, chip: String, roots: ProbeRoots, window: Duration = .milliseconds(1500)
    ) -> HX711Finding {
        var pins = pins
        pins.chip = chip
        do throws(HardwareError) {
            let gpio = try GPIOChip(GPIOChipSpec(parsing: chip), deviceDirectory: roots.deviceDirectory)
            let sck = try gpio.requestOutput(
                GPIOLineSpec(parsing: pins.sck), consumer: "plumscale setup PD_SCK", initialValue: false)
            let dout = try gpio.requestInput(
                GPIOLineSpec(parsing: pins.dout), consumer: "plumscale setup DOUT", edges: .both)
            let watch = HX711Watch(clockLine: sck, dataLine: dout, time: SystemMonotonicClock(), window: window)
            return try judged(pins, watching: watch.run)
        } catch {
            return HX711Finding(pins: pins, error: error)
        }
    }

    /// The finding of one watch, or of a second when the first found a problem (see
    /// ``watch(_:chip:roots:window:)``).
    package static func judged(
        _ pins: HX711Pins, watching run: () throws(HardwareError) -> HX711Observation
    ) throws(HardwareError) -> HX711Finding {
        let first = HX711Finding(pins: pins, observation: try run())
        guard !first.isOK else { return first }
        var second = HX711Finding(pins: pins, observation: try run())
        if second.isOK { second.firstWatch = first.verdict?.finding }
        return second
    }

    enum CodingKeys: String, CodingKey {
        case pins, error, falls
        case strayEdges = "stray_edges"
        case status, diagnosis, rate, finding, causes
        case firstWatch = "first_watch"
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(pins, forKey: .pins)
        try container.encode(isOK ? "ok" : "problem", forKey: .status)
        try container.encode(verdict?.code ?? "unavailable", forKey: .diagnosis)
        try container.encodeIfPresent(verdict?.rate?.rawValue, forKey: .rate)
        try container.encode(verdict?.finding ?? error ?? "", forKey: .finding)
        try container.encode(verdict?.likelyCauses ?? [], forKey: .causes)
        try container.encode(falls, forKey: .falls)
        try container.encode(strayEdges, forKey: .strayEdges)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(firstWatch, forKey: .firstWatch)
    }

    /// The finding, and for a problem its likely causes and the README's wiring table.
    package var description: String {
        let place = "HX711 DT=\(pins.dout) SCK=\(pins.sck)" + (pins.chip.map { " on \($0)" } ?? "")
        guard let verdict else { return "\(place): could not watch DOUT: \(error ?? "unknown error")" }
        guard !verdict.isOK else {
            let again = firstWatch.map { " (on a second watch; the first saw: \($0))" } ?? ""
            return "\(place): ok, \(verdict.finding)\(again)"
        }
        var lines = ["\(place): problem: \(verdict.finding)", "  likely:"]
        lines += verdict.likelyCauses.map { "    - \($0)" }
        lines.append("  the README's wiring:")
        lines += ReadmeWiring.hx711Table.map { "    \($0)" }
        return lines.joined(separator: "\n")
    }
}
