import PlumConsole
import PlumProtocol
import Testing

@Suite("A piece count in words")
struct CountTextTests {
    @Test("an ambiguous count says so with its ratio, never a guess")
    func ambiguous() {
        var report = WeightReport(
            sensor: "pan", time: 1, grams: 51.5, display: "51.5 g", unit: "g", stable: true, overload: false,
            underload: false, zero: false, tare: 0, heaviest: false, hue: 0, rgb: "#ff0000", calibrated: true)
        report.counted(nil, ratio: 20.6)
        #expect(CountText.text(report).hasPrefix("pan: ambiguous, 20.60 pieces"))
        report.counted(1, ratio: nil)
        #expect(CountText.text(report) == "pan: 1 piece")
    }
}
