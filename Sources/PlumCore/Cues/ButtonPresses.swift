/// What a press of the scale's push button asks for: a short press tares, a long one zeroes.
public enum ButtonGesture: String, Hashable, Sendable {
    case short
    case long
}

/// Turns a push button's edges, time-stamped by the kernel, into presses: contact bounce is
/// filtered out and a short press is told from a long one.
///
/// A change of level counts once the line has held the new level for `debounce`, so the burst
/// of edges a mechanical contact makes when it closes or opens is one press, and a spike
/// shorter than `debounce` is none. The change is dated by the edge that began the level that
/// held, not by when it was confirmed, so a press's length is the contact's own.
///
/// A long press is reported while the button is still held, as soon as it has been held for
/// `longPress` (a user sees the zero happen without letting go); its release then reports
/// nothing. A shorter press is reported when it is released.
///
/// A button already pressed when watching starts (held, stuck, or wired with the wrong
/// `active_low`) does nothing until it has been released.
///
/// Times are nanoseconds on one monotonic clock (the kernel's edge time stamps and
/// `CLOCK_MONOTONIC` readings alike). Pure: the caller feeds edges and the time.
public struct ButtonPresses: Sendable {
    /// How long a new level must hold to count, in nanoseconds.
    public let debounce: UInt64
    /// How long a press must be held to be a long one, in nanoseconds.
    public let longPress: UInt64
    /// The settled level: true while pressed.
    public private(set) var isPressed: Bool
    private var pressedAt: UInt64?
    /// The press has already been reported (as long), or must report nothing.
    private var reported: Bool
    /// A level the line changed to, and since when, not yet held for `debounce`.
    private var candidate: (pressed: Bool, since: UInt64)?

    /// - Parameters:
    ///   - debounce: nanoseconds a new level must hold (0 takes each edge as it comes).
    ///   - longPress: nanoseconds held that make a long press (at least `debounce`).
    ///   - pressedAtStart: the line's level when watching starts.
    public init(debounce: UInt64, longPress: UInt64, pressedAtStart: Bool = false) {
        self.debounce = debounce
        self.longPress = max(longPress, debounce)
        isPressed = pressedAtStart
        reported = pressedAtStart
    }

    /// Takes one edge: the line became pressed (or released) at `time`.
    /// - Returns: a press that ended or was confirmed by the time of this edge.
    public mutating func edge(pressed: Bool, at time: UInt64) -> ButtonGesture? {
        let gesture = settle(now: time)
        if let candidate {
            // Back to the settled level before it held: bounce, or a spike.
            if pressed == isPressed {
                self.candidate = nil
            } else if pressed != candidate.pressed {
                self.candidate = (pressed, time)
            }
        } else if pressed != isPressed {
            candidate = (pressed, time)
        }
        return gesture
    }

    /// Lets time pass to `now` with no edge: a level may settle, and a press may become long.
    /// - Returns: the press reported by now, if any.
    public mutating func tick(now: UInt64) -> ButtonGesture? {
        if let gesture = settle(now: now) { return gesture }
        guard isPressed, !reported, let pressedAt, now >= pressedAt, now - pressedAt >= longPress else { return nil }
        reported = true
        return .long
    }

    /// Accepts the candidate level if it has held for `debounce` by `now`.
    private mutating func settle(now: UInt64) -> ButtonGesture? {
        guard let candidate, now >= candidate.since, now - candidate.since >= debounce else { return nil }
        self.candidate = nil
        isPressed = candidate.pressed
        if isPressed {
            pressedAt = candidate.since
            reported = false
            // A press already held long enough when it settles (a slow caller) is long now.
            if now - candidate.since >= longPress {
                reported = true
                return .long
            }
            return nil
        }
        defer {
            pressedAt = nil
            reported = false
        }
        return reported ? nil : .short
    }
}
