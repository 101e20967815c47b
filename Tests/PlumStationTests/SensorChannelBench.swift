import PlumDaemonConfig
import PlumDrivers
import PlumHardware
import PlumProtocol
import PlumSensors
import Testing

@testable import PlumCore
@testable import PlumStation

/// One calibrated pan's channel, driven by hand with exact signals (8000 counts empty, 420 per
/// gram) at 80 SPS: no actor, no thread, no clock but the samples' own times.
struct ChannelBench {
    static let countsPerGram = 420.0
    static let emptyCounts = 8_000.0
    static let period: UInt64 = 12_500_000

    var channel: SensorChannel
    var heaviest = HeaviestJudge(order: ["pan"])
    /// The next sample's index: its time is `index` × 12.5 ms, its wall-clock time `index` / 80 s.
    var index: UInt64 = 1

    /// - Parameter extra: TOML appended to the file, such as an `[[alert]]` on "pan".
    init(capacity: Double = 500, extra: String = "") throws {
        let configuration = try PlumConfiguration.parse(
            """
            [scale]
            initial_zero = false
            capacity_grams = \(capacity)
            [cue]
            chip = "gpiochip0"
            line = "GPIO18"
            [[sensor]]
            name = "pan"
            kind = "simulated-hx711"
            rate = 80
            \(extra)
            """, file: "channel.toml")
        let sensor = configuration.sensors[0]
        let scale = try SensorEngines.scaleConfiguration(of: configuration, sensor: sensor)
        let points = [0.0, 50, 100, 150].map {
            CalibrationPoint(grams: $0, signal: Self.emptyCounts + Self.countsPerGram * $0, noise: 10, samples: 24)
        }
        let calibration = try CalibrationFit.fit(
            points: points, sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale,
            createdAt: "2026-05-01T09:30:00Z"
        ).get()
        let engine = try WeighingEngine(
            sensor: sensor.identity, kind: sensor.sensorKind, configuration: scale, calibration: calibration)
        channel = SensorChannel(
            name: "pan", index: 0, configuration: sensor, engine: engine,
            raw: RawBatcher(limit: 16, window: 100_000_000))
        channel.alerts = configuration.alerts.enumerated().map { ChannelAlert($1, position: $0) }
        channel.items = try ChannelItems(
            sensor: "pan", settings: sensor.items, classes: try WeightClasses(configuration.classes), engine: engine)
    }

    /// The wall-clock time the bench gives the sample with `index`.
    static func wallTime(_ index: UInt64) -> Double { Double(index) / 80 }

    /// One sample of `grams`; what the channel made of it.
    mutating func take(_ grams: Double) -> SensorChannel.Outputs {
        let signal = Self.emptyCounts + Self.countsPerGram * grams
        let sample = Sample(
            raw: Int32(signal.rounded()), signal: signal, time: MonotonicInstant(nanoseconds: index * Self.period))
        defer { index += 1 }
        return channel.take(sample, wallTime: Self.wallTime(index), heaviest: &heaviest)
    }

    /// `count` samples of `grams`; what the channel made of each.
    @discardableResult
    mutating func feed(_ grams: Double, count: Int = 80) -> [SensorChannel.Outputs] {
        (0..<count).map { _ in take(grams) }
    }

    /// The sampler's `state`, between the samples.
    mutating func take(_ state: SensorState) -> SensorChannel.Outputs {
        let now = MonotonicInstant(nanoseconds: index * Self.period)
        return channel.take(state, now: now, wallTime: Self.wallTime(index), heaviest: &heaviest)
    }

    /// A wait for a stable reading with `token` and `action`, its deadline `seconds` of
    /// sample time from now.
    mutating func waitForStable(_ token: UInt64, _ action: WeighingAction, seconds: Double = 10) {
        let now = MonotonicInstant(nanoseconds: index * Self.period)
        channel.waitForStable(token, action, timeout: .milliseconds(Int64(seconds * 1000)), from: now)
    }
}

extension SensorChannel.Outputs {
    /// The `ALERT` reports among those published after the weight.
    var alertReports: [AlertReport] { trailing.compactMap { if case .alert(let alert) = $0 { alert } else { nil } } }
    /// The `ITEM` reports this output publishes.
    var itemReports: [ItemReport] { items.map(\.report) }
    /// The `CUE` reports among those published after the weight.
    var cueReports: [CueReport] { trailing.compactMap { if case .cue(let cue) = $0 { cue } else { nil } } }
}
