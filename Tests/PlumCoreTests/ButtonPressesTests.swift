import PlumCore
import PlumTestThreads
import PropertyBased
import Testing

@Suite("A push button's edges become short and long presses", .ownThreads)
struct ButtonPressesTests {
    static let ms: UInt64 = 1_000_000
    /// 20 ms debounce, 1 s long press, as the configuration's defaults.
    static func button(pressedAtStart: Bool = false) -> ButtonPresses {
        ButtonPresses(debounce: 20 * ms, longPress: 1_000 * ms, pressedAtStart: pressedAtStart)
    }

    /// Feeds `(pressed, ms)` edges, ticking every 5 ms between them and for 2 s after the last,
    /// and returns every gesture with the millisecond it was reported at.
    static func run(_ edges: [(Bool, UInt64)], on button: inout ButtonPresses) -> [(ButtonGesture, UInt64)] {
        var gestures: [(ButtonGesture, UInt64)] = []
        var now: UInt64 = 0
        let end = (edges.last?.1 ?? 0) + 2_000
        var pending = edges[...]
        while now <= end {
            while let next = pending.first, next.1 <= now {
                if let gesture = button.edge(pressed: next.0, at: next.1 * ms) { gestures.append((gesture, next.1)) }
                pending = pending.dropFirst()
            }
            if let gesture = button.tick(now: now * ms) { gestures.append((gesture, now)) }
            now += 5
        }
        return gestures
    }

    @Test("a clean 200 ms press is one short press, reported at its release")
    func shortPress() {
        var button = Self.button()
        let gestures = Self.run([(true, 100), (false, 300)], on: &button)
        #expect(gestures.map(\.0) == [.short], "gestures: \(gestures)")
        #expect((gestures.first?.1 ?? 0) >= 300, "a short press is known only once released: \(gestures)")
    }

    @Test("a press held past 1 s is one long press, reported while still held, and its release adds nothing")
    func longPress() {
        var button = Self.button()
        let gestures = Self.run([(true, 100), (false, 3_000)], on: &button)
        #expect(gestures.map(\.0) == [.long], "gestures: \(gestures)")
        let at = gestures.first?.1 ?? 0
        #expect(at >= 1_100 && at <= 1_130, "the long press is reported 1 s after the press began, at \(at) ms")
    }

    @Test("a contact that bounces for 8 ms on closing and on opening is still one press")
    func bouncingContact() {
        var button = Self.button()
        let closing: [(Bool, UInt64)] = [(true, 100), (false, 101), (true, 103), (false, 104), (true, 108)]
        let opening: [(Bool, UInt64)] = [(false, 400), (true, 401), (false, 403), (true, 405), (false, 408)]
        let gestures = Self.run(closing + opening, on: &button)
        #expect(gestures.map(\.0) == [.short], "gestures: \(gestures)")
    }

    @Test("a spike shorter than the debounce time is no press at all")
    func spike() {
        var button = Self.button()
        let gestures = Self.run([(true, 100), (false, 110), (true, 500), (false, 505)], on: &button)
        #expect(gestures.isEmpty, "noise made presses: \(gestures)")
        #expect(!button.isPressed)
    }

    @Test("a button already pressed when watching starts does nothing until released, then works")
    func pressedAtStart() {
        var button = Self.button(pressedAtStart: true)
        let gestures = Self.run([(false, 5_000), (true, 6_000), (false, 6_200)], on: &button)
        #expect(gestures.map(\.0) == [.short], "only the press after the release counts: \(gestures)")
        #expect((gestures.first?.1 ?? 0) >= 6_200)
    }

    @Test("a caller that looks late still dates the press by its edges: held 1.5 s is long, 0.3 s short")
    func lateCaller() {
        var button = Self.button()
        _ = button.edge(pressed: true, at: 0)
        #expect(button.tick(now: 1_500 * Self.ms) == .long, "a press held 1.5 s when first looked at")
        #expect(button.edge(pressed: false, at: 1_600 * Self.ms) == nil)
        _ = button.edge(pressed: true, at: 5_000 * Self.ms)
        #expect(button.edge(pressed: false, at: 5_300 * Self.ms) == nil, "the release is not yet settled")
        #expect(button.tick(now: 5_400 * Self.ms) == .short)
    }

    @Test("any sequence of edges gives at most one gesture per press, and none without a press that held")
    func atMostOnePerPress() async {
        await propertyCheck(input: Gen.int(in: 1...40).array(of: 1...30)) { gaps in
            var button = Self.button()
            var edges: [(Bool, UInt64)] = []
            var time: UInt64 = 0
            var pressed = false
            for gap in gaps {
                time += UInt64(gap) * 7
                pressed.toggle()
                edges.append((pressed, time))
            }
            let gestures = Self.run(edges, on: &button)
            // A press needs a pressed level that held 20 ms, so at most one per such level.
            var heldPresses = 0
            for (index, edge) in edges.enumerated() where edge.0 {
                let end = index + 1 < edges.count ? edges[index + 1].1 : UInt64.max
                if end - edge.1 >= 20 { heldPresses += 1 }
            }
            #expect(gestures.count <= heldPresses, "\(gestures.count) gestures from \(heldPresses) presses: \(edges)")
        }
    }
}
