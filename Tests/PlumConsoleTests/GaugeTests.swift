import PlumConsole
import PlumProtocol
import Testing

@Suite("The watch gauge, drawn as text")
struct GaugeTests {
    static func report(_ sensor: String, percent: Double, overload: Bool = false, heaviest: Bool = false)
        -> WeightReport
    {
        let line = """
            {"class":"WEIGHT","sensor":"\(sensor)","time":0,"grams":\(percent * 3.85),"display":"\(percent * 3.85) g","unit":"g",\
            "percent":\(percent),"stable":true,"overload":\(overload),"underload":false,"zero":false,"tare":0,\
            "heaviest":\(heaviest),"hue":0,"rgb":"#ff0000","calibrated":true,"signal":0}
            """
        guard case .weight(let report)? = try? Report.decode(line[...]) else { fatalError("bad fixture: \(line)") }
        return report
    }

    @Test(
        "a bar's filled length is its share of full scale, in eighths of a cell",
        arguments: [
            (0.0, 0), (50.0, 20 * 8), (25.0, 10 * 8), (1.25, 4), (100.0, 40 * 8)
        ])
    func barLength(percent: Double, eighths: Int) {
        let bar = Gauge(colour: .none).bar(Self.report("left", percent: percent), width: 40).map(\.text).joined()
        let full = bar.filter { $0 == "█" }.count
        let partial = ["▏", "▎", "▍", "▌", "▋", "▊", "▉"].firstIndex { bar.contains($0) }.map { $0 + 1 } ?? 0
        #expect(full * 8 + partial == eighths, "\(bar)")
        #expect(bar.count == 40, "the bar always takes its width")
    }

    @Test("an overloaded pan fills the bar and reads 100%+ in place of grams and percent")
    func overload() {
        let lines = Gauge(colour: .none).lines(
            [Gauge.Row(sensor: "left", report: Self.report("left", percent: 109, overload: true))], columns: 100)
        #expect(lines[0].contains(String(repeating: "█", count: 10)))
        #expect(lines[0].components(separatedBy: "100%+").count == 3, "\(lines[0])")
    }

    @Test("no line is wider than the terminal, so redrawing in place never wraps", arguments: [60, 80, 132])
    func fitsWidth(columns: Int) {
        let rows = [
            Gauge.Row(
                sensor: "a-long-sensor-name", report: Self.report("a-long-sensor-name", percent: 42, heaviest: true),
                cueAge: 0.2)
        ]
        for line in Gauge(colour: .none).lines(rows, columns: columns) {
            #expect(line.count <= columns, "\(line.count) > \(columns): \(line)")
        }
    }

    @Test("256-colour terminals get the nearest colour of the 6×6×6 cube")
    func palette() {
        #expect(Gauge(colour: .palette256).hueParameters("#ff0000") == "38;5;196")
        #expect(Gauge(colour: .palette256).hueParameters("#00ff00") == "38;5;46")
        #expect(Gauge(colour: .trueColour).hueParameters("#5eff00") == "38;2;94;255;0")
    }
}

extension String {
    func components(separatedBy separator: String) -> [Substring] {
        split(separator: separator, omittingEmptySubsequences: false)
    }
}
