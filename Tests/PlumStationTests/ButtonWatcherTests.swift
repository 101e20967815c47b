import PlumCore
import PlumHardware
import PlumSensors
import PlumSimulation
import PlumTestSupport
import Synchronization
import Testing

@testable import PlumStation

/// A push button on a modelled line, watched on its own thread, tares and zeroes a station
/// weighing the HX711 chip model's codes.
@Suite("A push button tares with a short press and zeroes with a long one")
struct ButtonWatcherTests {
    static let ms: UInt64 = 1_000_000

    /// The presses the watcher reported, in order.
    final class Gestures: Sendable {
        private let seen = Mutex<[ButtonGesture]>([])
        func append(_ gesture: ButtonGesture) { seen.withLock { $0.append(gesture) } }
        var all: [ButtonGesture] { seen.withLock { $0 } }
    }

    /// A watcher on `button` that hands each press to the station's "left" pan and records it.
    static func watch(
        _ button: SimulatedButton, station: Station, gestures: Gestures
    ) async throws -> ButtonWatcher<SimulatedButton> {
        let watcher = ButtonWatcher(
            line: button, debounce: .milliseconds(20), longPress: .milliseconds(1000), name: "button on the model",
            logger: quietLogger
        ) { gesture in
            gestures.append(gesture)
            Task { await station.buttonPressed(gesture, sensors: ["left"]) }
        }
        watcher.start()
        // The signal: it has read the line's level, so a press from now on is a press.
        try await waitFor("the button watcher to start", timeout: .seconds(10)) { watcher.isWatching }
        return watcher
    }

    static func ago(_ milliseconds: UInt64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now().nanoseconds - milliseconds * ms)
    }

    static func fromNow(_ milliseconds: UInt64) -> MonotonicInstant {
        MonotonicInstant(nanoseconds: SystemMonotonicClock().now().nanoseconds + milliseconds * ms)
    }

    @Test("held 1.5 s with 3 g on the pan it zeroes; then a 200 ms press with 100 g on it tares 100 g")
    func longZeroesShortTares() async throws {
        let bench = try await RoundTripBench()
        let station = bench.station
        let button = SimulatedButton()
        let gestures = Gestures()
        let watcher = try await Self.watch(button, station: station, gestures: gestures)
        defer { watcher.stop() }

        try await bench.feed(3)
        button.press(at: Self.ago(1_500))  // held for 1.5 s by now: a long press, while still held
        let zeroed = await eventually(within: .seconds(10)) {
            try await bench.feed(3, count: 2)
            let reading = await station.currentReading(of: "left")
            return abs(reading?.net ?? 99) < 0.05
        }
        #expect(zeroed, "the long press did not zero the 3 g: gestures \(gestures.all)")
        button.release()
        #expect(gestures.all == [.long], "the release of a long press adds nothing")

        try await bench.feed(103)
        // Edges come in time order: this press starts 100 ms after the release above (closer
        // than the 20 ms debounce, it would be that release's bounce), and its release is
        // known once the watcher's clock has passed it. Both are queued at once, so a watcher
        // that runs between two calls on a busy machine never sees the press alone.
        let start = Self.fromNow(100)
        button.press(at: start, releasedAt: MonotonicInstant(nanoseconds: start.nanoseconds + 200 * Self.ms))
        let tared = await eventually(within: .seconds(10)) {
            try await bench.feed(103, count: 2)
            return abs((await station.tare(of: "left") ?? 0) - 100) < 0.05
        }
        let tare = await station.tare(of: "left")
        #expect(tared, "the short press did not tare 100 g: tare \(String(describing: tare))")
        #expect(gestures.all == [.long, .short])
    }

    @Test("a contact that bounces three times on closing is one short press, one tare")
    func bouncingPressTaresOnce() async throws {
        let bench = try await RoundTripBench()
        let station = bench.station
        let button = SimulatedButton()
        let gestures = Gestures()
        let watcher = try await Self.watch(button, station: station, gestures: gestures)
        defer { watcher.stop() }

        try await bench.feed(50)
        let start = Self.ago(400)
        button.pressBouncing(
            at: start, bounces: 3, releasedAt: MonotonicInstant(nanoseconds: start.nanoseconds + 300 * Self.ms))
        let tared = await eventually(within: .seconds(10)) {
            try await bench.feed(50, count: 2)
            return abs((await station.tare(of: "left") ?? 0) - 50) < 0.05
        }
        #expect(tared, "the press did not tare 50 g")
        #expect(gestures.all == [.short], "a bouncing contact made \(gestures.all)")
    }
}
