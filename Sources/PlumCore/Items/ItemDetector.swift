/// Turns one sensor's readings into items: fruit placed and removed one after another
/// (docs/items.md).
///
/// It consumes what the engine already decided, each reading's filtered net and its stable
/// flag, and never looks at samples: filtering and the motion rule are the engine's, and an
/// item is a step between two levels the engine called stable. A level is confirmed once the
/// load has been stable within 1 d for ``ItemDetection/confirmation``; a step of at least
/// ``ItemDetection/minimumStep`` from the previous level, rounded to d, is an ``ItemEvent``.
///
/// Levels are net, and a tare rebases the detector (``tare(time:grossDivisions:)``): what is on
/// the pan when it is tared is a container, not fruit, so the items on it are retracted and the
/// tared pan is the new empty level. A bowl tared before the fruit is never counted; levels
/// were once gross, and a tared bowl was an item with every plum in it `stacked`.
///
/// What it is robust to, and why:
/// - a hand resting on the pan: the load drifts and the engine calls nothing stable, so nothing
///   is confirmed; when the hand goes the level is the old one again and the step is zero;
/// - two fruit within the settling time: there is no stable level between them, so one step of
///   their sum is one item, flagged ``ItemEvent/Flags/merged`` when the engine called the first
///   stable, too briefly to confirm, before the second landed;
/// - a rolling fruit: wobble is motion; the item is the step to where it comes to rest.
///
/// Like ``WeighingEngine`` it is a value with no clock: time comes from the readings.
public struct ItemDetector: Sendable {
    public let sensor: String
    public let division: Division
    public let settings: ItemDetection
    /// The last confirmed gross level in grams, at the engine's resolution; nil before the first
    /// one (and after ``rebase()``), when a step cannot be measured yet.
    public private(set) var level: Double?
    /// `one-at-a-time`: the level of the empty pan, which a fall must reach to end every item.
    public private(set) var emptyLevel: Double?
    /// `one-at-a-time`: the items on the pan, the latest last.
    public private(set) var itemsOnPan: [Int] = []
    /// Either mode: the items placed since the pan was last near its empty level, with their
    /// weights in divisions, the latest last: what a tare retracts.
    private var placedSinceEmpty: [(item: Int, divisions: Int64)] = []
    /// The gross of the latest reading, for ``ItemEvent/grossAfterDivisions``; nil when the
    /// levels were given directly (then the level is the gross).
    private var latestGross: Double?
    /// `one-at-a-time`: since the last confirmed level, a reading (stable or not) came within N
    /// of the empty pan's level with an item on it: the next rise is a swap, not a stack.
    private var dippedNearEmpty = false
    /// The gross after (in divisions) and the time of the level being confirmed, for its events.
    private var confirming: (grossAfter: Int64, time: UInt64) = (0, 0)
    /// How many events so far; the next has this number plus one.
    public private(set) var eventCount = 0
    /// How many items so far.
    public private(set) var itemCount = 0

    /// A stable load waiting to be confirmed as a level: where it was first stable and since when.
    private var candidate: (value: Double, since: UInt64)?
    /// The lowest stop at least N above ``level`` and the highest at least N below, since the
    /// level was confirmed: a step that passes one of them stopped on the way.
    private var lowestStopAbove: Double?
    private var highestStopBelow: Double?
    /// `one-at-a-time`: the items a restart or an outage left on the pan, with their weights in
    /// divisions, to be matched against the first level confirmed after it (``resume(onPan:lastItem:)``).
    private var resumedOnPan: [(item: Int, divisions: Int64)]?

    /// Min in divisions: a rise that would be an item lighter than this is none (OIML R 76-1
    /// table 3: no result below Min); 0 for none.
    public let minimumWeight: Int64
    /// The weight, in divisions, of the latest rise that was no item because it lay below Min,
    /// for a report of why; nil once an item was made since.
    public private(set) var ignoredBelowMinimum: Int64?

    public init(
        sensor: String, division: Division, settings: ItemDetection = ItemDetection(), minimumWeight: Int64 = 0
    ) throws(Refusal) {
        if case .failure(let refusal) = settings.validate() { throw refusal }
        self.sensor = sensor
        self.division = division
        self.settings = settings
        self.minimumWeight = max(0, minimumWeight)
    }

    /// Takes the engine's next reading; returns the events it completes, in order: none, most
    /// often; one for a step; a swap's `removed` and `placed`, or one `removed` for each item a
    /// fall to the empty pan ends (`one-at-a-time`).
    ///
    /// A reading that shows no weight (overload, underload, no signal, uncalibrated) counts as
    /// motion: nothing is confirmed through it.
    public mutating func observe(_ reading: Reading) -> [ItemEvent] {
        guard case .grams = reading.display else {
            return observe(gross: nil, stable: false, time: reading.time)
        }
        defer { latestGross = nil }
        latestGross = reading.gross
        return observe(gross: reading.net, stable: reading.isStable, time: reading.time, sample: reading.sampleNet)
    }

    /// The same on the values themselves: the engine's filtered net in grams (nil: no weight;
    /// the gross while there is no tare), its stable flag and the reading's time.
    ///
    /// Levels are measured on the filtered net, not on the display: the display moves only
    /// ¼ d past a rounding boundary (docs/engine.md), so it can stand up to ¾ d from the load,
    /// and the difference of two displays up to 1½ d from the item. The difference of two
    /// filtered levels, rounded once, is within ½ d plus the filter's own error.
    ///
    /// `sample` is the sample's own unfiltered net (``Reading/sampleNet``), when known: a swap's
    /// dip can be shorter than the filter's window (at 10 SPS, one sample or two), so the dip is
    /// watched on it as well as on the filtered net.
    public mutating func observe(gross: Double?, stable: Bool, time: UInt64, sample: Double? = nil) -> [ItemEvent] {
        // A swap's dip is motion: the load passes near the empty pan without ever being
        // stable there, so every reading is watched for it, stable or not.
        var lowest = gross.flatMap { $0.isFinite ? $0 : nil }
        if let sample, sample.isFinite { lowest = min(lowest ?? sample, sample) }
        if let value = lowest, settings.mode == .oneAtATime, !itemsOnPan.isEmpty,
            let emptyLevel, value - emptyLevel < minimumStepGrams
        {
            dippedNearEmpty = true
        }
        guard let value = gross, value.isFinite, stable else {
            candidate = nil
            return []
        }
        noteStop(value)
        let d = division.grams
        if let held = candidate, abs(value - held.value) <= d {
            // Stable and within 1 d of where it first was: the same level, still being confirmed.
        } else {
            candidate = (value, time)
        }
        guard let held = candidate, time &- held.since >= settings.confirmation else { return [] }
        return confirm(value, time: time)
    }

    /// Forgets the level, for a zero command, which moves the gross level without anything
    /// placed or lifted, or after the sensor stopped delivering: the next confirmed level is a
    /// fresh start (and, in `one-at-a-time`, the empty pan), not a step. Items still to be matched
    /// after a ``resume(onPan:lastItem:)`` stay so: a restart's power-up zero rebases too.
    public mutating func rebase() {
        level = nil
        emptyLevel = nil
        itemsOnPan.removeAll()
        placedSinceEmpty.removeAll()
        candidate = nil
        dippedNearEmpty = false
        clearStops()
    }

    /// Goes on after a restart of the daemon or an outage of the sensor, which the detector did
    /// not see: item numbers continue after `lastItem`, and `onPan` are the items recorded as on
    /// the pan when it stopped seeing it (`one-at-a-time`; ignored in `accumulate`).
    ///
    /// The first level confirmed after it is the net weight on the pan and decides (docs/items.md,
    /// "Restarts"): within N of what `onPan` weighed, those items are still on the pan (not
    /// counted again); otherwise they went off while unseen (`removed` for each), and a load of at
    /// least N and Min on the pan is one new item, weighed from net zero (not lost).
    public mutating func resume(onPan: [(item: Int, divisions: Int64)], lastItem: Int) {
        rebase()
        itemCount = max(itemCount, lastItem)
        if settings.mode == .oneAtATime { resumedOnPan = onPan }
    }

    /// The items on the pan as weighed, or those still to be matched after a resume: what
    /// ``resume(onPan:lastItem:)`` needs after an outage.
    public var weighedOnPan: [(item: Int, divisions: Int64)] {
        resumedOnPan ?? itemsOnPan.map { item in (item, weightOnPan(item) ?? 0) }
    }

    /// Numbers the next item 1: a new session began. The items on the pan keep their numbers but
    /// are no longer retracted by a tare, as the new session never had them.
    public mutating func renumber() {
        itemCount = 0
        placedSinceEmpty.removeAll()
    }

    /// The pan was tared: whatever is on it is a container now (a tare device zeroes the
    /// indication with the container on the pan). Each item placed since the pan was last empty is
    /// retracted, latest first, and the detector starts afresh from the tared (net zero) pan,
    /// so the fruit that follows is weighed from it and never `stacked` on the bowl.
    ///
    /// - Parameters:
    ///   - time: the time of the reading the tare was taken from.
    ///   - grossDivisions: the gross when tared, in divisions, for the events.
    /// - Returns: one `retracted` event per item taken back (none when the bowl was tared before
    ///   it was confirmed as an item).
    public mutating func tare(time: UInt64, grossDivisions: Int64) -> [ItemEvent] {
        var events: [ItemEvent] = []
        for placed in placedSinceEmpty.reversed() {
            eventCount += 1
            events.append(
                ItemEvent(
                    sensor: sensor, sequence: eventCount, item: placed.item, kind: .retracted,
                    divisions: placed.divisions, grossAfterDivisions: grossDivisions, division: division, time: time))
        }
        rebase()
        resumedOnPan = nil
        return events
    }

    /// Records a stable load that may never be confirmed: a stop on the way. The engine's
    /// stable flag already means a window of stillness (300 ms), so a stop is a real pause,
    /// never the trough of a wobble, which a stillness of the display alone took for one at
    /// 10 SPS (docs/items.md).
    private mutating func noteStop(_ value: Double) {
        guard let level else { return }
        let n = minimumStepGrams
        if value >= level + n { lowestStopAbove = min(lowestStopAbove ?? value, value) }
        if value <= level - n { highestStopBelow = max(highestStopBelow ?? value, value) }
    }

    private mutating func clearStops() {
        lowestStopAbove = nil
        highestStopBelow = nil
    }

    /// N in grams.
    private var minimumStepGrams: Double { division.grams(divisions: settings.minimumStep) }

    /// A stable level has held long enough: measure the step from the previous one.
    private mutating func confirm(_ value: Double, time: UInt64) -> [ItemEvent] {
        defer {
            clearStops()
            dippedNearEmpty = false
        }
        guard let previous = level else {
            level = value
            if let onPan = resumedOnPan {
                resumedOnPan = nil
                return resume(at: value, onPan: onPan, time: time)
            }
            if itemsOnPan.isEmpty { emptyLevel = value }
            return []
        }
        level = value
        let n = minimumStepGrams
        // The step is rounded once, to whole divisions, and compared with N in them, so an item
        // of exactly N d as printed is an item.
        let step = division.round(value - previous).divisions
        if settings.mode == .oneAtATime, dippedNearEmpty, !itemsOnPan.isEmpty, let empty = emptyLevel,
            value - empty >= n, abs(step) < settings.minimumStep
        {
            // A swap for a fruit within N of the old one's weight: the level hardly moved, but
            // the load went near empty on the way, so it is another fruit.
            confirming = (division.round(latestGross ?? value).divisions, time)
            return swap(to: division.round(value - empty).divisions, at: value, flags: [])
        }
        guard abs(step) >= settings.minimumStep else {
            // A small change (a stalk, tracking) or the old level back after a hand: no item,
            // but the next item is measured from here.
            if settings.mode == .oneAtATime, itemsOnPan.isEmpty { emptyLevel = value }
            return []
        }
        if step > 0, minimumWeight > 0 {
            let fromEmpty = emptyLevel.map { division.round(value - $0).divisions } ?? step
            let loaded = settings.mode == .oneAtATime && (itemsOnPan.isEmpty || dippedNearEmpty)
            let weight = loaded ? fromEmpty : step
            guard weight >= minimumWeight else {
                // Below Min: no result, so no item; like a small change, the next item is
                // measured from here.
                ignoredBelowMinimum = weight
                if settings.mode == .oneAtATime, itemsOnPan.isEmpty { emptyLevel = value }
                return []
            }
            ignoredBelowMinimum = nil
        }
        var flags: ItemEvent.Flags = []
        let stopped = step > 0 ? lowestStopAbove.map { $0 <= value - n } : highestStopBelow.map { $0 >= value + n }
        if stopped == true { flags.insert(.merged) }
        confirming = (division.round(latestGross ?? value).divisions, time)
        guard settings.mode == .oneAtATime, let empty = emptyLevel else {
            // accumulate: each rise an item, each fall one removal of the drop.
            if step > 0 {
                itemCount += 1
                placedSinceEmpty.append((itemCount, step))
                return [event(.placed, itemCount, step, flags)]
            }
            if let emptyLevel, value - emptyLevel < n { placedSinceEmpty.removeAll() }
            return [event(.removed, nil, -step, flags)]
        }
        // one-at-a-time: an item is a load, weighed from the empty pan's level.
        let fromEmpty = division.round(value - empty).divisions
        if step < 0 {
            if value - empty < n {
                // Near the empty pan: whatever was on it is off, each item ended by its own weight.
                defer {
                    (itemsOnPan, placedSinceEmpty) = ([], [])
                    emptyLevel = value
                }
                guard !itemsOnPan.isEmpty else { return [event(.removed, nil, -step, flags)] }
                if itemsOnPan.count == 1 {
                    return [event(.removed, itemsOnPan[0], -step, flags)]
                }
                var events: [ItemEvent] = []
                for item in itemsOnPan.reversed() {
                    events.append(event(.removed, item, weightOnPan(item) ?? -step, flags))
                }
                return events
            }
            if dippedNearEmpty, !itemsOnPan.isEmpty {
                // A swap for a lighter fruit: all went off on the way, and this is a new load.
                return swap(to: fromEmpty, at: value, flags: flags)
            }
            // Part of the load lifted: the most recently placed item is the one gone.
            let item = itemsOnPan.popLast()
            placedSinceEmpty.removeAll { $0.item == item }
            return [event(.removed, item, -step, flags)]
        }
        if !itemsOnPan.isEmpty, dippedNearEmpty {
            // A swap: the load passed near the empty pan on the way, so what was on it went off
            // and this is a new load of its own level, not the difference.
            return swap(to: fromEmpty, at: value, flags: flags)
        }
        // On the empty pan, an item of its own level; on a fruit with no dip on the way, a
        // true stack: the difference.
        if !itemsOnPan.isEmpty { flags.insert(.stacked) }
        return [place(itemsOnPan.isEmpty ? fromEmpty : step, flags: flags)]
    }

    /// The first level after a restart or an outage, `value` net, against the items recorded on
    /// the pan (``resume(onPan:lastItem:)``).
    private mutating func resume(at value: Double, onPan: [(item: Int, divisions: Int64)], time: UInt64)
        -> [ItemEvent]
    {
        let measured = division.round(value).divisions
        let open = onPan.reduce(Int64(0)) { $0 + $1.divisions }
        if !onPan.isEmpty, abs(measured - open) < settings.minimumStep {
            // What was on the pan is on it still: counted before, not again.
            itemsOnPan = onPan.map(\.item)
            placedSinceEmpty = onPan
            emptyLevel = value - division.grams(divisions: open)
            return []
        }
        confirming = (division.round(latestGross ?? value).divisions, time)
        var events: [ItemEvent] = []
        for gone in onPan.reversed() { events.append(event(.removed, gone.item, gone.divisions, [])) }
        guard measured >= settings.minimumStep, measured >= minimumWeight else {
            emptyLevel = value
            return events
        }
        // Placed while unseen: an item of its own weight from net zero.
        emptyLevel = value - division.grams(divisions: measured)
        events.append(place(measured, flags: []))
        return events
    }

    /// A new item of `divisions` on the pan.
    private mutating func place(_ divisions: Int64, flags: ItemEvent.Flags) -> ItemEvent {
        itemCount += 1
        itemsOnPan.append(itemCount)
        placedSinceEmpty.append((itemCount, divisions))
        return event(.placed, itemCount, divisions, flags)
    }

    /// A swap: every item on the pan `removed`, latest first with its own weight, then the new
    /// load `placed` at `divisions` from the empty pan; below Min it is no item, and, like a
    /// small change on the empty pan, the level `value` the next is weighed from.
    private mutating func swap(to divisions: Int64, at value: Double, flags: ItemEvent.Flags) -> [ItemEvent] {
        var events: [ItemEvent] = []
        for item in itemsOnPan.reversed() { events.append(event(.removed, item, weightOnPan(item) ?? 0, [])) }
        (itemsOnPan, placedSinceEmpty) = ([], [])
        guard divisions >= minimumWeight else {
            ignoredBelowMinimum = divisions
            emptyLevel = value
            return events
        }
        events.append(place(divisions, flags: flags))
        return events
    }

    /// The next event, numbered, at the level being confirmed (``confirming``).
    private mutating func event(_ kind: ItemEvent.Kind, _ item: Int?, _ divisions: Int64, _ flags: ItemEvent.Flags)
        -> ItemEvent
    {
        eventCount += 1
        return ItemEvent(
            sensor: sensor, sequence: eventCount, item: item, kind: kind, divisions: divisions,
            grossAfterDivisions: confirming.grossAfter, division: division, time: confirming.time, flags: flags)
    }

    /// The weight an item on the pan was placed with, in divisions.
    private func weightOnPan(_ item: Int) -> Int64? {
        placedSinceEmpty.first { $0.item == item }?.divisions
    }
}
