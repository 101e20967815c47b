import PlumTestThreads
import PropertyBased
import Testing

@testable import PlumCore

@Suite("Heaviest pan and combined total", .ownThreads)
struct ScaleGroupTests {
    static func reading(_ sensor: String, net: Double?, overload: Bool = false, stable: Bool = true) -> Reading {
        let d = Division.standard
        let rounded = d.round(net ?? 0)
        let display: Reading.Display =
            overload
            ? .overload : net == nil ? .uncalibrated : .grams(divisions: rounded.divisions, value: rounded.grams)
        let loaded = overload || (net ?? 0) >= 20 * d.grams
        return Reading(
            sensor: sensor, time: 0, signal: 0, gross: net, tare: 0, net: net, display: display, division: d,
            capacity: 385,
            percentOfCapacity: net.map { $0 / 3.85 }, isStable: stable, isOverload: overload, isUnderload: false,
            isCentreOfZero: false, isLoaded: loaded, calibration: net == nil ? nil : Fixtures.linearCalibration(),
            uncalibratedReason: net == nil ? "not calibrated" : nil, cues: [], calibrationStep: nil, capturedPoint: nil)
    }

    struct GroupCase: Sendable, CustomStringConvertible {
        var name: String
        var readings: [Reading]
        var heaviest: ScaleGroup.Heaviest
        var description: String { name }
    }

    @Test(
        "the heaviest loaded pan is highlighted; ties, unloaded and uncalibrated pans are handled",
        arguments: [
            GroupCase(
                name: "two plums", readings: [reading("left", net: 61.2), reading("right", net: 58.9)],
                heaviest: .sensor("left")),
            GroupCase(
                name: "right heavier", readings: [reading("left", net: 41), reading("right", net: 58.9)],
                heaviest: .sensor("right")),
            GroupCase(
                name: "equal to the division", readings: [reading("left", net: 60.02), reading("right", net: 60.07)],
                heaviest: .tie(["left", "right"])),
            GroupCase(
                name: "both empty", readings: [reading("left", net: 0.1), reading("right", net: -0.1)],
                heaviest: .none),
            GroupCase(
                name: "one empty pan", readings: [reading("left", net: 1.9), reading("right", net: 2.5)],
                heaviest: .sensor("right")),
            GroupCase(
                name: "overload outweighs",
                readings: [reading("left", net: 380), reading("right", net: 400, overload: true)],
                heaviest: .sensor("right")),
            GroupCase(
                name: "two overloads tie",
                readings: [reading("left", net: 390, overload: true), reading("right", net: 500, overload: true)],
                heaviest: .tie(["left", "right"])),
            GroupCase(
                name: "uncalibrated pan ignored", readings: [reading("left", net: nil), reading("right", net: 30)],
                heaviest: .sensor("right")),
            GroupCase(
                name: "three-way with a tie at the top",
                readings: [reading("a", net: 70), reading("b", net: 90), reading("c", net: 90.05)],
                heaviest: .tie(["b", "c"])),
            GroupCase(name: "no sensors", readings: [], heaviest: .none)
        ])
    func heaviest(_ example: GroupCase) {
        #expect(ScaleGroup.summarize(example.readings).heaviest == example.heaviest)
    }

    @Test("the total sums net loads, and is unavailable with the reason when a pan is overloaded or uncalibrated")
    func total() {
        let platform = [
            Self.reading("a", net: 10), Self.reading("b", net: 20.5), Self.reading("c", net: 0.25, stable: false)
        ]
        let summary = ScaleGroup.summarize(platform)
        #expect(summary.total == .grams(30.75))
        #expect(summary.loaded == ["a", "b"])
        #expect(!summary.allStable)
        let over = ScaleGroup.summarize([Self.reading("a", net: 10), Self.reading("b", net: 400, overload: true)])
        #expect(over.total == .unavailable(reason: "sensor b is overloaded"))
        let raw = ScaleGroup.summarize([Self.reading("a", net: nil)])
        #expect(raw.total == .unavailable(reason: "sensor a is not calibrated"))
    }

    @Test("the heaviest pan does not depend on the order the sensors are listed in")
    func orderIndependent() async {
        await propertyCheck(input: Gen.double(in: -1...400).array(of: 1...6)) { loads in
            let readings = loads.enumerated().map {
                Self.reading("s\($0.offset)", net: $0.element, overload: $0.element > 385.9)
            }
            let forward = ScaleGroup.summarize(readings).heaviest
            let backward = ScaleGroup.summarize(readings.reversed()).heaviest
            switch (forward, backward) {
            case (.tie(let a), .tie(let b)): #expect(Set(a) == Set(b))
            default: #expect(forward == backward)
            }
        }
    }
}
