/// A named benchmark workload: a load script and how long to run it.
package struct Workload: Hashable, Sendable {
    package var name: String
    package var events: [ScriptedLoad.Event]
    /// Seconds of simulated time.
    package var duration: Double

    package init(name: String, events: [ScriptedLoad.Event], duration: Double) {
        self.name = name
        self.events = events
        self.duration = duration
    }

    /// The same script, its first event `lead` seconds after the start: the pan is left empty
    /// until then, as an operator waits for the display to show 0 before weighing.
    package func starting(at lead: Double) -> Workload {
        let first = events.map(\.start).min() ?? lead
        let delay = max(0, lead - first)
        return Workload(name: name, events: events.map { $0.delayed(by: delay) }, duration: duration + delay)
    }

    /// The empty pan, for `duration` seconds.
    package static func empty(duration: Double) -> Workload { Workload(name: "empty", events: [], duration: duration) }

    /// The workloads of the settling benchmark.
    package static let all: [Workload] = [steps, plum, ramp, knocks, smallSteps]

    /// 20 g, 100 g and 385 g placed and removed, 4 s apart.
    package static let steps = Workload(
        name: "steps",
        events: [
            .step(at: 2, to: 20), .step(at: 6, to: 0),
            .step(at: 10, to: 100), .step(at: 14, to: 0),
            .step(at: 18, to: 385), .step(at: 22, to: 0)
        ], duration: 26)

    /// A plum rolling to rest: each placement and removal rings at 4–6 Hz, decaying with a
    /// time constant of 0.1 s (a small pan on a 1 kg bar cell): the pan itself is within 1 d of
    /// rest about 0.6 s after the plum lands.
    package static let plum = Workload(
        name: "plum",
        events: [
            .ringingStep(at: 2, to: 87.3, frequency: 4, decay: 0.1, depth: 0.5),
            .ringingStep(at: 8, to: 0, frequency: 4, decay: 0.1, depth: 0.5),
            .ringingStep(at: 12, to: 112.6, frequency: 6, decay: 0.1, depth: 0.7),
            .ringingStep(at: 18, to: 0, frequency: 6, decay: 0.1, depth: 0.7)
        ], duration: 22)

    /// A slow pour: 0 to 200 g over 8 s, held, then lifted off.
    package static let ramp = Workload(
        name: "ramp",
        events: [
            .ramp(at: 2, to: 200, duration: 8), .step(at: 16, to: 0)
        ], duration: 20)

    /// 100 g, then steps of 0.2 to 0.5 g on and off it, 3 s apart (a grape, a stalk): smaller
    /// than the filter's step threshold (4 d), so an average that restarts only on a jump
    /// creeps to them, and a display creeping 1 d at a time can look still.
    package static let smallSteps = Workload(
        name: "small",
        events: [
            .step(at: 1, to: 100), .step(at: 4, to: 100.33), .step(at: 7, to: 100.53),
            .step(at: 10, to: 100.03), .step(at: 13, to: 100.43), .step(at: 16, to: 100.18),
            .step(at: 19, to: 99.78)
        ], duration: 22)

    /// 100 g on the pan, knocked for 25 ms by +40 g, −30 g and +120 g.
    package static let knocks = Workload(
        name: "knocks",
        events: [
            .step(at: 1, to: 100),
            .knock(at: 5, grams: 40, duration: 0.025),
            .knock(at: 9, grams: -30, duration: 0.025),
            .knock(at: 13, grams: 120, duration: 0.025)
        ], duration: 17)
}
