/// One reading of one sensor.
///
/// Its real numbers are kept on the grids the protocol sends them on (``ReportGrid``: the time
/// to the microsecond, grams and tare to a thousandth of the division, percent and hue far finer
/// than a division), so a report decodes to exactly the values it was made with.
public struct WeightReport: Hashable, Sendable, Decodable {
    public var sensor: String
    public var time: Double
    /// Net grams at full resolution; nil while there is no valid reading.
    public var grams: Double?
    /// The value as the scale shows it, rounded to the division.
    public var display: String
    public var unit: String
    public var percent: Double?
    public var stable: Bool
    public var overload: Bool
    public var underload: Bool
    public var zero: Bool
    /// The tare in effect, in grams (0: none).
    public var tare: Double
    public var heaviest: Bool
    /// The ForceSketch hue in degrees (0 red, 120 green, 240 blue, 360 red at full scale).
    public var hue: Double
    /// The same colour as `#rrggbb`.
    public var rgb: String
    public var calibrated: Bool
    /// Why there is no weight to trust: the sensor's state reason while it delivers no samples
    /// (with ``state``), else why it is not calibrated, when it is not.
    public var reason: String?
    /// The filtered raw signal the grams come from.
    public var signal: Double?
    /// The division (scale interval d) ``display`` is rounded to, in grams: 0.1, 0.2, 0.5, 1, 2, 5 …
    /// Older daemons do not send it; a client then reads the step from ``display``.
    public var division: Double?
    /// How fast the net weight changes, in grams per second, to 0.01 g/s (protocol 1.2): the
    /// least-squares slope over the engine's flow window (1 s); nil until a window of valid
    /// readings has been seen since the start, a zero or tare, an overload or a fault.
    public var flow: Double?
    /// The shown weight as a whole number of divisions (protocol 1.3): ``display`` is
    /// `divisions × division` grams. The engine rounds once, with its display hysteresis, and
    /// every client renders from this count (in grams or another unit), so a half-way weight
    /// shows the same digits everywhere. Nil when the display is not a weight (overload, no
    /// signal, uncalibrated, a sensor in an outage).
    public var divisions: Int64?
    /// The sensor's state when it is not `ok` (protocol 1.3): `not-ready`, `fault`, `ended` or
    /// `stopped`. Such a report carries no grams, is never stable, and has ``stale`` set: the
    /// last weight is not shown as current (docs/protocol.md, "A sensor that stops").
    public var state: String?
    /// The weight this report stands for is not current: the sensor has delivered nothing since
    /// its last good sample, ``age`` seconds ago (protocol 1.3).
    public var stale: Bool
    /// Seconds since the sensor's last good sample, with ``stale``; nil when it never delivered.
    public var age: Double?
    /// The pieces on the pan while the sensor counts (`?COUNT`, protocol 1.5): the net over one
    /// piece's weight, rounded; nil when not counting, and when the ratio is more than 0.3 of a
    /// piece from a whole number (then ``countRatio``).
    public var count: Int?
    /// The ratio of net to one piece, to 0.01, when it is too far from a whole number to count:
    /// a piece of another size, or something else on the pan.
    public var countRatio: Double?
    /// While the sensor check-weighs (`?CHECK`, protocol 1.5): `under`, `ok` or `over` the
    /// target's limits, judged on the displayed weight; only on a stable reading.
    public var check: String?
    /// While check-weighing (protocol 1.8): the reading lies within 1 d of a limit, where one
    /// division decides the verdict; sent only when true.
    public var borderline = false
    /// While counting or check-weighing (protocol 1.8): why a stable reading has no count or
    /// verdict, such as `below the minimum weight 2.0 g` or `the pan is empty`; nil otherwise.
    public var withheld: String?
    /// While counting with reference optimisation (protocol 1.8): only true, on the reading
    /// whose count became the new reference.
    public var countReferenceUpdated = false

    public init(
        sensor: String, time: Double, grams: Double? = nil, display: String, unit: String, percent: Double? = nil,
        stable: Bool, overload: Bool, underload: Bool, zero: Bool, tare: Double, heaviest: Bool, hue: Double,
        rgb: String, calibrated: Bool, reason: String? = nil, signal: Double? = nil, division: Double? = nil,
        flow: Double? = nil, divisions: Int64? = nil, state: String? = nil, stale: Bool = false, age: Double? = nil
    ) {
        let gramsGrid = ReportGrid.grams(division: division)
        self.sensor = sensor
        self.time = DecimalText.onGrid(time, decimals: ReportGrid.time)
        self.grams = grams.map { ReportGrid.onGrid($0, decimals: gramsGrid) }
        self.display = display
        self.unit = unit
        self.percent = percent.map { DecimalText.onGrid($0, decimals: ReportGrid.percent) }
        self.stable = stable
        self.overload = overload
        self.underload = underload
        self.zero = zero
        self.tare = ReportGrid.onGrid(tare, decimals: gramsGrid)
        self.heaviest = heaviest
        self.hue = DecimalText.onGrid(hue, decimals: ReportGrid.hue)
        self.rgb = rgb
        self.calibrated = calibrated
        self.reason = reason
        self.signal = signal
        self.division = division.map { DecimalText.onGrid($0, decimals: ReportGrid.division) }
        // + 0 turns a rate that rounds to -0 into 0, so a still pan never reads "-0".
        self.flow = flow.map { DecimalText.onGrid($0, decimals: ReportGrid.flow) + 0 }
        self.divisions = divisions
        self.state = state
        self.stale = stale
        self.age = age.map { DecimalText.onGrid($0, decimals: ReportGrid.time) }
    }

    /// Sets the piece count (protocol 1.5): a whole `count`, or when the pieces cannot be told,
    /// nil and the `ratio` of net to one piece, kept on its 0.01 grid as it is sent.
    /// `withheld` says why a stable load has no count (protocol 1.8).
    public mutating func counted(_ count: Int?, ratio: Double?, withheld: String? = nil) {
        self.count = count
        countRatio = ratio.map { DecimalText.onGrid($0, decimals: 2) }
        if let withheld { self.withheld = withheld }
    }

    /// Sets the check-weighing verdict (protocol 1.5): `under`, `ok` or `over`, or nil; whether
    /// it is within 1 d of a limit and why a stable load has none (protocol 1.8).
    public mutating func checked(_ verdict: String?, borderline: Bool = false, withheld: String? = nil) {
        check = verdict
        self.borderline = borderline
        if let withheld { self.withheld = withheld }
    }

    /// A fingerprint of what a display shows of this report: the shown weight and unit, the
    /// marks, the state, the count and the verdict, not the readings at full resolution nor
    /// the time. Two reports of a sensor with equal fingerprints look the same on a display
    /// (protocol 1.9's changes-only watch); valid within one process, as Swift's hashing is
    /// seeded per process.
    public var shownFingerprint: Int {
        var hasher = Hasher()
        hasher.combine(display)
        hasher.combine(unit)
        hasher.combine(divisions)
        hasher.combine(stable)
        hasher.combine(overload)
        hasher.combine(underload)
        hasher.combine(zero)
        hasher.combine(tare)
        hasher.combine(heaviest)
        hasher.combine(calibrated)
        hasher.combine(reason)
        hasher.combine(state)
        hasher.combine(stale)
        hasher.combine(count)
        hasher.combine(countRatio)
        hasher.combine(check)
        hasher.combine(borderline)
        hasher.combine(withheld)
        return hasher.finalize()
    }

    /// The weight as the scale displays it, in grams: ``divisions`` × ``division``; from an
    /// older daemon, which sends no count, the full-resolution ``grams``. Nil with no grams.
    public var shownGrams: Double? {
        guard grams != nil else { return nil }
        guard let divisions, let division, let decimals = ReportGrid.grams(division: division) else { return grams }
        return DecimalText.onGrid(Double(divisions) * division, decimals: decimals) + 0
    }

    private enum CodingKeys: String, CodingKey {
        case sensor, time, grams, display, unit, percent, stable, overload, underload, zero, tare, heaviest, hue, rgb
        case calibrated, reason, signal, division, flow, divisions, state, stale, age, count, check, borderline
        case withheld
        case countRatio = "count_ratio"
        case countReferenceUpdated = "count_reference_updated"
    }

    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            sensor: try values.decode(String.self, forKey: .sensor),
            time: try values.decode(Double.self, forKey: .time),
            grams: try values.decodeIfPresent(Double.self, forKey: .grams),
            display: try values.decode(String.self, forKey: .display),
            unit: try values.decode(String.self, forKey: .unit),
            percent: try values.decodeIfPresent(Double.self, forKey: .percent),
            stable: try values.decode(Bool.self, forKey: .stable),
            overload: try values.decode(Bool.self, forKey: .overload),
            underload: try values.decode(Bool.self, forKey: .underload),
            zero: try values.decode(Bool.self, forKey: .zero), tare: try values.decode(Double.self, forKey: .tare),
            heaviest: try values.decode(Bool.self, forKey: .heaviest),
            hue: try values.decode(Double.self, forKey: .hue),
            rgb: try values.decode(String.self, forKey: .rgb),
            calibrated: try values.decode(Bool.self, forKey: .calibrated),
            reason: try values.decodeIfPresent(String.self, forKey: .reason),
            signal: try values.decodeIfPresent(Double.self, forKey: .signal),
            division: try values.decodeIfPresent(Double.self, forKey: .division),
            flow: try values.decodeIfPresent(Double.self, forKey: .flow),
            divisions: try values.decodeIfPresent(Int64.self, forKey: .divisions),
            state: try values.decodeIfPresent(String.self, forKey: .state),
            stale: try values.decodeIfPresent(Bool.self, forKey: .stale) ?? false,
            age: try values.decodeIfPresent(Double.self, forKey: .age))
        count = try values.decodeIfPresent(Int.self, forKey: .count)
        countRatio = try values.decodeIfPresent(Double.self, forKey: .countRatio).map {
            DecimalText.onGrid($0, decimals: 2)
        }
        check = try values.decodeIfPresent(String.self, forKey: .check)
        borderline = try values.decodeIfPresent(Bool.self, forKey: .borderline) ?? false
        withheld = try values.decodeIfPresent(String.self, forKey: .withheld)
        countReferenceUpdated = try values.decodeIfPresent(Bool.self, forKey: .countReferenceUpdated) ?? false
    }
}
