import FoundationEssentials
import PropertyBased
import Testing

@testable import PlumProtocol

/// The per-sample reports write their real numbers digit by digit on fixed grids. Against the
/// generic shortest-text path they replaced, every line must read back to the same values: the
/// same text for a report made through its init (whose numbers are on the grids), and within
/// half a grid step of any value otherwise.
@Suite("Per-sample reports on their decimal grids read back as the generic formatter's text")
struct ReportGridTests {
    private struct Decoded: Decodable { var v: Double? }

    /// Doubles from every corner: all bit patterns (NaN, infinities, subnormals, 1e308),
    /// ordinary weights of both signs, epoch times, and the values a scale sends most.
    private static let specials: [Double] = [
        0, -0.0, .nan, .infinity, -.infinity, 1e300, -.leastNonzeroMagnitude, 0.1, 152.22603693733885, 1e15
    ]
    private static let doubles = Gen<Double>.oneOf(
        Gen.int64(in: .min ... .max).map { Double(bitPattern: UInt64(bitPattern: $0)) },
        Gen.double(in: -1_000...1_000),
        Gen.double(in: -1e12...1e12),
        Gen.double(in: 1.7e9...4.6e9),
        Gen.int(in: 0...(specials.count - 1)).map { specials[$0] })

    /// Every division a scale can have (1, 2 or 5 × 10^k g, k from −6 to 3), with its k.
    private static let allowed: [(grams: Double, exponent: Int)] = (-6...3).flatMap { exponent in
        [1.0, 2, 5].map { mantissa in
            (exponent < 0 ? mantissa / pow10(-exponent) : mantissa * pow10(exponent), exponent)
        }
    }

    /// Every division a scale can have, or none (an older daemon's report).
    private static let divisions: [Double?] = [nil] + allowed.map(\.grams)

    private static func pow10(_ places: Int) -> Double { (0..<places).reduce(1.0) { product, _ in product * 10 } }

    private func generic(_ value: Double) -> String {
        var json = JSONWriter()
        json.add("v", value)
        return json.finished
    }

    private func onGrid(_ value: Double, _ decimals: Int) -> String {
        var json = JSONWriter()
        json.add("v", value, decimals: decimals)
        return json.finished
    }

    private func read(_ text: String) -> Double?? {
        (try? JSONDecoder().decode(Decoded.self, from: Data(text.utf8))).map(\.v)
    }

    @Test("a number on any report grid is the generic text of its grid value, and reads back within half a step of it")
    func numbers() async {
        await propertyCheck(input: Self.doubles, Gen.int(in: 0...5).map { [0, 3, 4, 5, 6, 9][$0] }) { value, decimals in
            let fast = onGrid(value, decimals)
            let kept = DecimalText.onGrid(value, decimals: decimals)
            #expect(fast == generic(kept), "\(value) at \(decimals) places: \(fast), generic \(generic(kept))")
            guard value.isFinite else {
                #expect(fast == #"{"v":null}"# && generic(value) == fast, "\(value) is null on both paths")
                return
            }
            guard let back = read(fast), let back else {
                Issue.record("\(fast) does not read back as a number")
                return
            }
            #expect(back == kept, "\(fast) reads back as \(back), not as the value it was kept as, \(kept)")
            let step = 1 / Self.pow10(decimals)
            #expect((back - value).magnitude <= step / 2 + value.ulp, "\(value) moved more than half a step to \(back)")
            if (value * Self.pow10(decimals)).rounded().magnitude >= 0x1p50 {
                #expect(fast == generic(value), "past 2^50 units \(value) is sent as it is: \(fast)")
            }
            #expect(DecimalText.onGrid(kept, decimals: decimals) == kept, "keeping \(value) on the grid is idempotent")
        }
    }

    /// The WEIGHT encoding before the grids: every number through the generic path.
    private func genericLine(_ report: WeightReport) -> String {
        var json = JSONWriter()
        json.add("class", "WEIGHT")
        json.add("sensor", report.sensor)
        json.add("time", report.time)
        json.add("grams", optional: report.grams)
        json.add("display", report.display)
        json.add("unit", report.unit)
        json.add("percent", optional: report.percent)
        json.add("stable", report.stable)
        json.add("overload", report.overload)
        json.add("underload", report.underload)
        json.add("zero", report.zero)
        json.add("tare", report.tare)
        json.add("heaviest", report.heaviest)
        json.add("hue", report.hue)
        json.add("rgb", report.rgb)
        json.add("calibrated", report.calibrated)
        if let reason = report.reason { json.add("reason", reason) }
        json.add("signal", optional: report.signal)
        if let division = report.division { json.add("division", division) }
        return json.line
    }

    @Test("a WEIGHT report made from any reading is the generic encoder's line for its values, and decodes to them")
    func weightReports() async throws {
        let times = Gen<Double>.oneOf(Gen.double(in: 1.7e9...4.5e9), Gen.double(in: 0...1e6))
        let finite = Gen<Double>.oneOf(
            Gen.double(in: -1_000...1_000), Gen.double(in: -1e12...1e12), Gen.bool().map { $0 ? 0.0 : -0.0 })
        await propertyCheck(
            input: times, finite.optional(), finite.optional(), finite, Gen.double(in: 0...360),
            Gen.int(in: 0...(Self.divisions.count - 1)).map { Self.divisions[$0] }
        ) { time, grams, percent, tare, hue, division in
            let report = WeightReport(
                sensor: "left", time: time, grams: grams, display: "152.2 g", unit: "g", percent: percent,
                stable: true, overload: false, underload: false, zero: false, tare: tare, heaviest: true, hue: hue,
                rgb: "#00ff5f", calibrated: true, signal: 369_848, division: division)
            let line = Report.weight(report).line
            #expect(line == genericLine(report), "the grids changed the text of \(report)")
            let decoded = try? Report.decode(line.dropLast()[...])
            #expect(decoded == .weight(report), "\(line) decodes to \(String(describing: decoded))")

            let gramsStep = ReportGrid.grams(division: division).map { 1 / Self.pow10($0) } ?? 0
            let moved: [(String, Double, Double, Double)] =
                [
                    ("time", time, report.time, 1e-6), ("tare", tare, report.tare, gramsStep),
                    ("hue", hue, report.hue, 1e-4)
                ] + (grams.map { [("grams", $0, report.grams ?? .nan, gramsStep)] } ?? [])
                + (percent.map { [("percent", $0, report.percent ?? .nan, 1e-5)] } ?? [])
            for (name, given, kept, step) in moved {
                #expect((kept - given).magnitude <= step / 2 + given.ulp, "\(name) \(given) was kept as \(kept)")
            }
        }
    }

    @Test("a RAW report's times are the generic text of the times to the microsecond, and decode to them")
    func rawTimes() async throws {
        let times = Gen<Double>.oneOf(Gen.double(in: 1.7e9...4.5e9), Gen.double(in: -1e3...1e6)).array(of: 0...16)
        await propertyCheck(input: times) { times in
            let report = RawReport(sensor: "left", times: times, raw: times.map { _ in -8_388_608 })
            var generic = JSONWriter()
            generic.add("class", "RAW")
            generic.add("sensor", report.sensor)
            generic.add("times", numbers: report.times)
            generic.add("raw", integers: report.raw)
            let line = Report.raw(report).line
            #expect(line == generic.line, "the microsecond grid changed the text of \(times)")
            #expect((try? Report.decode(line.dropLast()[...])) == .raw(report), "\(line) does not decode to its report")
            for (given, kept) in zip(times, report.times) {
                #expect((kept - given).magnitude <= 0.5e-6 + given.ulp, "time \(given) was kept as \(kept)")
            }
        }
    }

    @Test("grams go to a thousandth of the division, for every division a scale can have")
    func gramsGrid() {
        for (division, exponent) in Self.allowed {
            let places = ReportGrid.grams(division: division)
            #expect(places == min(9, max(0, -exponent) + 3), "\(division) g gets \(String(describing: places)) places")
            var json = JSONWriter()
            json.add("d", division, decimals: ReportGrid.division)
            #expect(json.finished == #"{"d":"# + JSONWriter.number(division) + "}", "the division \(division) is exact")
        }
        for none in [nil, 0, -0.1, .nan, .infinity, 1e-7] as [Double?] {
            #expect(ReportGrid.grams(division: none) == nil, "no grid from a division of \(String(describing: none))")
        }
    }
}
