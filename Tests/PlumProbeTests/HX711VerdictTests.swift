import Foundation
import PlumHardware
import PlumProbe
import Testing

/// The verdict on observations built by hand: the edges of each rule, and the texts.
@Suite("HX711 verdicts from DOUT observations")
struct HX711VerdictTests {
    static func observation(intervalsMilliseconds: [Double], stray: Int = 0) -> HX711Observation {
        var observation = HX711Observation(window: .seconds(2))
        var time: UInt64 = 1_000_000_000
        observation.readyFalls.append(MonotonicInstant(nanoseconds: time))
        for interval in intervalsMilliseconds {
            time += UInt64(interval * 1_000_000)
            observation.readyFalls.append(MonotonicInstant(nanoseconds: time))
        }
        observation.words = Array(repeating: 1234, count: observation.readyFalls.count)
        observation.strayEdges = stray
        observation.levelAtEnd = true
        return observation
    }

    @Test("one missed conversion (a doubled interval) is still 10 SPS")
    func missedConversion() {
        let verdict = HX711Verdict(Self.observation(intervalsMilliseconds: [100, 100, 200, 100, 100]))
        #expect(verdict.rate == .sps10)
    }

    @Test("an untrimmed oscillator 20 % fast is still 80 SPS; 50 ms is neither rate")
    func tolerance() {
        #expect(HX711Verdict(Self.observation(intervalsMilliseconds: [10, 10, 10, 10])).rate == .sps80)
        #expect(
            HX711Verdict(Self.observation(intervalsMilliseconds: [50, 50, 50, 50]))
                == .unknownRate(intervalNanoseconds: 50_000_000))
    }

    @Test("two falls are too few to judge")
    func tooFew() {
        #expect(HX711Verdict(Self.observation(intervalsMilliseconds: [100])) == .tooFewFalls(count: 2))
    }

    @Test("steady falls with as many stray rises as falls are a floating line, not a chip")
    func strayEdges() {
        let verdict = HX711Verdict(Self.observation(intervalsMilliseconds: [100, 100, 100, 100], stray: 5))
        #expect(verdict == .floating(edges: 10))
    }

    @Test("a problem's text names the pins, the likely causes and the README's wiring table")
    func problemText() {
        var observation = HX711Observation(window: .seconds(1))
        observation.levelAtEnd = true
        let pins = HX711Pins(chip: "pinctrl-rp1", dout: "GPIO5", sck: "GPIO6")
        let finding = HX711Finding(pins: pins, observation: observation)
        let text = finding.description
        #expect(text.hasPrefix("HX711 DT=GPIO5 SCK=GPIO6 on pinctrl-rp1: problem: DOUT stays high"))
        #expect(text.contains("the HX711 is not powered: check VCC and GND"))
        #expect(text.contains("DT (DOUT)      pin 29 (GPIO5)"))
        #expect(text.contains("SCK (PD_SCK)   pin 31 (GPIO6)"))
    }

    @Test("the JSON says status, diagnosis and causes for scripts")
    func json() throws {
        var observation = HX711Observation(window: .seconds(1))
        observation.levelAtEnd = true
        let finding = HX711Finding(pins: .readme, observation: observation)
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(finding)) as? [String: Any])
        #expect(object["status"] as? String == "problem")
        #expect(object["diagnosis"] as? String == "stuck-high")
        #expect((object["causes"] as? [String])?.count == 3)
        #expect((object["pins"] as? [String: Any])?["dout"] as? String == "GPIO5")
    }

    @Test("a problem on the first watch only is watched again, reported ok, and the first finding kept")
    func secondWatchClearsADisturbedWindow() throws {
        var stuckLow = HX711Observation(window: .seconds(1))
        stuckLow.levelAtEnd = false
        stuckLow.doutLowAfterReadout = 1
        var watches = [stuckLow, Self.observation(intervalsMilliseconds: [100, 100, 100, 100])]
        let finding = try HX711Finding.judged(.readme) { () throws(HardwareError) in watches.removeFirst() }
        #expect(watches.isEmpty)
        #expect(finding.isOK)
        #expect(finding.firstWatch == "DOUT stays low, and 25 clock pulses on SCK do not pull it high")
        #expect(finding.description.contains("ok, DOUT falls every 100.0 ms"))
        #expect(
            finding.description.hasSuffix(
                "(on a second watch; the first saw: DOUT stays low, "
                    + "and 25 clock pulses on SCK do not pull it high)"))
        let encoder = JSONEncoder()
        let object = try #require(
            try JSONSerialization.jsonObject(with: encoder.encode(finding)) as? [String: Any])
        #expect(object["status"] as? String == "ok")
        #expect((object["first_watch"] as? String)?.hasPrefix("DOUT stays low") == true)
    }

    @Test("a problem seen twice is reported; an ok first watch is not repeated")
    func problemTwiceIsReported() throws {
        var stuckHigh = HX711Observation(window: .seconds(1))
        stuckHigh.levelAtEnd = true
        var watches = [stuckHigh, stuckHigh, stuckHigh]
        let finding = try HX711Finding.judged(.readme) { () throws(HardwareError) in watches.removeFirst() }
        #expect(watches.count == 1)
        #expect(finding.verdict == .stuckHigh)
        #expect(finding.firstWatch == nil)

        var steady = [Self.observation(intervalsMilliseconds: [100, 100, 100]), stuckHigh]
        let ok = try HX711Finding.judged(.readme) { () throws(HardwareError) in steady.removeFirst() }
        #expect(ok.isOK && steady.count == 1 && ok.firstWatch == nil)
    }
}
