import PlumConsole
import PlumHomeAssistant
import PlumProtocol
import PlumScaleDaemon
import PlumStation
import Testing

@testable import PlumCore

/// One weight, one set of digits: the engine rounds the net load to the division once, the
/// report carries that count of divisions, and every client renders from it. Before, Home
/// Assistant rounded the report's 4-decimal grams again and showed 12.3 where the display
/// showed 12.4, for 1335 of the 3850 half-way weights between 0 and 385 g.
@Suite("One rounding, everywhere: display, WEIGHT, MQTT, CLI, MT-SICS and history agree")
struct OneRoundingTests {
    static let calibration: Calibration = {
        let sensor = SensorIdentity(id: "pan", model: "HX711 + 1 kg cell", channel: "A", gain: 128)
        let points = [0.0, 100, 200, 300].map {
            CalibrationPoint(grams: $0, signal: 8_000 + 420 * $0, noise: 10, samples: 24)
        }
        let fit = CalibrationFit.fit(
            points: points, sensor: sensor, kind: .loadCell, configuration: ScaleConfiguration(),
            createdAt: "2026-11-26T12:00:00Z")
        guard case .success(let calibration) = fit else { preconditionFailure("fixture fit failed: \(fit)") }
        return calibration
    }()

    /// The reading the engine makes of a net load: the display is the engine's one rounding.
    static func reading(net: Double, division: Division) -> Reading {
        let rounded = division.round(net)
        return Reading(
            sensor: "pan", time: 0, signal: 0, gross: net, tare: 0, net: net,
            display: .grams(divisions: rounded.divisions, value: rounded.grams), division: division, capacity: 385,
            percentOfCapacity: net / 3.85, isStable: true, isOverload: false, isUnderload: false,
            isCentreOfZero: false, isLoaded: true, calibration: calibration, uncalibratedReason: nil, cues: [],
            calibrationStep: nil, capturedPoint: nil)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var division: Double
        var testDescription: String { "d = \(division) g" }
    }

    @Test(
        "every half-way weight from 0 to 385 g, and a hair either side, shows the display's digits in every client",
        arguments: [0.1, 0.2, 0.5, 1, 2].map(Case.init))
    func everyHalfWay(_ test: Case) throws {
        let division = try Division(grams: test.division)
        let steps = Int((385 / test.division).rounded())
        var disagreements: [String] = []
        for step in 0..<steps {
            for nudge in [-1e-9, 0, 1e-9] {
                let net = (Double(step) + 0.5) * test.division + nudge
                let reading = Self.reading(net: net, division: division)
                let display = reading.text(in: .gram)
                let shown = try #require(Double(display.dropLast(2)), "display \(display)")
                // The report as it crosses the socket: encoded once, decoded once.
                let sent = ReportBuilder.weightReport(reading, sensor: "pan", time: 0, heaviest: false)
                guard case .weight(let report) = try Report.decode(Report.weight(sent).line.dropLast()) else {
                    throw FixtureFailure("not a WEIGHT")
                }
                let mqtt = PublishingPolicy.shownGrams(report, division: DivisionRounding(grams: test.division))
                let cli = ReadingText.weight(report, unit: .gram)
                let mtsics = StationBalance.weight(reading, id: "S")
                let mtsicsGrams = mtsics.split(separator: " ").dropFirst(2).first.flatMap { Double($0) }
                let history = report.shownGrams
                if mqtt != shown || cli != display || mtsicsGrams != shown || history != shown {
                    disagreements.append(
                        "\(net) g: display \(display), MQTT \(String(describing: mqtt)), CLI \(cli), "
                            + "MT-SICS \(mtsics.debugDescription), history \(String(describing: history))")
                }
            }
        }
        #expect(disagreements.isEmpty, "\(disagreements.count) disagree, e.g. \(disagreements.prefix(3))")
    }

    @Test("the tare is printed to the division's decimals, not always one")
    func tareDecimals() throws {
        var report = ReportBuilder.weightReport(
            Self.reading(net: 10, division: try Division(grams: 0.05)), sensor: "pan", time: 0, heaviest: false)
        report.tare = 12.35
        #expect(ReadingText.flags(report).contains("tare 12.35 g"), "\(ReadingText.flags(report))")
    }
}
