/// Turns one sensor's readings into items: fruit placed and removed one after another
/// (docs/items.md).
///
/// It consumes what the engine already decided, the displayed value in divisions and the
/// stable flag, and never looks at samples: filtering and the motion rule are the engine's, and
/// an item is a step between two levels the engine called stable. A level is confirmed once the
/// stable display has held within 1 d for ``ItemDetection/confirmation``; a step of at least
/// ``ItemDetection/minimumStep`` from the previous level is an ``ItemEvent``. Levels are gross
/// (the shown net plus the tare), so taring a bowl is no removal.
///
/// What it is robust to, and why:
/// - a hand resting on the pan: the load drifts and the engine calls nothing stable, so nothing
///   is confirmed; when the hand goes the level is the old one again and the step is zero;
/// - two fruit within the settling time: there is no stable level between them, so one step of
///   their sum is one item, flagged ``ItemEvent/Flags/merged`` when the display stopped between;
/// - a rolling fruit: wobble is motion; the item is the step to where it comes to rest.
///
/// Like ``WeighingEngine`` it is a value with no clock: time comes from the readings.
public struct ItemDetector: Sendable {
    public let sensor: String
    public let division: Division
    public let settings: ItemDetection
    /// The last confirmed gross level in divisions; nil before the first one (and after
    /// ``rebase()``), when a step cannot be measured yet.
    public private(set) var level: Int64?
    /// `one-at-a-time`: the level of the empty pan, which a fall must reach to end every item.
    public private(set) var emptyLevel: Int64?
    /// `one-at-a-time`: the items on the pan, the latest last.
    public private(set) var itemsOnPan: [Int] = []
    /// How many events so far; the next has this number plus one.
    public private(set) var eventCount = 0
    /// How many items so far.
    public private(set) var itemCount = 0

    /// A stable display waiting to be confirmed as a level: its latest value and since when.
    private var candidate: (value: Int64, since: UInt64)?
    /// The lowest stop at least N above ``level`` and the highest at least N below, since the
    /// level was confirmed: a step that passes one of them stopped on the way.
    private var lowestStopAbove: Int64?
    private var highestStopBelow: Int64?

    public init(sensor: String, division: Division, settings: ItemDetection = ItemDetection()) throws(Refusal) {
        if case .failure(let refusal) = settings.validate() { throw refusal }
        self.sensor = sensor
        self.division = division
        self.settings = settings
    }

    /// Takes the engine's next reading; returns the event it completes, if any.
    ///
    /// A display that is no weight (overload, underload, no signal, uncalibrated) counts as
    /// motion: nothing is confirmed through it.
    public mutating func observe(_ reading: Reading) -> ItemEvent? {
        let tare = division.round(reading.tare).divisions
        // Taring moves the net by the tare and the gross not at all: the level, made from the
        // shown net and the rounded tare, moves by 1 d at most, which is no step.
        let gross = reading.displayedDivisions.map { $0 + tare }
        return observe(gross: gross, stable: reading.isStable, time: reading.time)
    }

    /// The same on the values themselves: the displayed gross level in divisions (nil: no
    /// weight shown), the engine's stable flag and the reading's time.
    public mutating func observe(gross: Int64?, stable: Bool, time: UInt64) -> ItemEvent? {
        guard let value = gross, stable else {
            candidate = nil
            return nil
        }
        noteStop(value)
        if let held = candidate, abs(value - held.value) <= 1 {
            candidate = (value, held.since)
        } else {
            candidate = (value, time)
        }
        guard let held = candidate, time &- held.since >= settings.confirmation else { return nil }
        return confirm(value, time: time)
    }

    /// Forgets the level, for a zero command, which moves the gross level without anything
    /// placed or lifted, or after the sensor stopped delivering: the next confirmed level is a
    /// fresh start (and, in `one-at-a-time`, the empty pan), not a step.
    public mutating func rebase() {
        level = nil
        emptyLevel = nil
        itemsOnPan.removeAll()
        candidate = nil
        clearStops()
    }

    /// Records a stable display that may never be confirmed: a stop on the way. The engine's
    /// stable flag already means a window of stillness (300 ms), so a stop is a real pause,
    /// never the trough of a wobble, which a stillness of the display alone took for one at
    /// 10 SPS (docs/items.md).
    private mutating func noteStop(_ value: Int64) {
        guard let level else { return }
        let n = settings.minimumStep
        if value >= level + n { lowestStopAbove = min(lowestStopAbove ?? value, value) }
        if value <= level - n { highestStopBelow = max(highestStopBelow ?? value, value) }
    }

    private mutating func clearStops() {
        lowestStopAbove = nil
        highestStopBelow = nil
    }

    /// A stable level has held long enough: measure the step from the previous one.
    private mutating func confirm(_ value: Int64, time: UInt64) -> ItemEvent? {
        defer { clearStops() }
        guard let previous = level else {
            level = value
            if itemsOnPan.isEmpty { emptyLevel = value }
            return nil
        }
        level = value
        let n = settings.minimumStep
        let step = value - previous
        guard abs(step) >= n else {
            // A small change (a stalk, tracking) or the old level back after a hand: no item,
            // but the next item is measured from here.
            if settings.mode == .oneAtATime, itemsOnPan.isEmpty { emptyLevel = value }
            return nil
        }
        var flags: ItemEvent.Flags = []
        let stopped = step > 0 ? lowestStopAbove.map { $0 <= value - n } : highestStopBelow.map { $0 >= value + n }
        if stopped == true { flags.insert(.merged) }
        eventCount += 1
        let item: Int?
        let kind: ItemEvent.Kind
        if step > 0 {
            kind = .placed
            itemCount += 1
            item = itemCount
            if settings.mode == .oneAtATime {
                if !itemsOnPan.isEmpty { flags.insert(.stacked) }
                itemsOnPan.append(itemCount)
            }
        } else {
            kind = .removed
            item = settings.mode == .oneAtATime ? itemsOnPan.popLast() : nil
            // Back at (or below) the empty pan: whatever was on it is off.
            if settings.mode == .oneAtATime, value - (emptyLevel ?? value) < n {
                itemsOnPan.removeAll()
                emptyLevel = value
            }
        }
        return ItemEvent(
            sensor: sensor, sequence: eventCount, item: item, kind: kind, divisions: abs(step),
            grossAfterDivisions: value, division: division, time: time, flags: flags)
    }
}
