#if canImport(Glibc)
    internal import Glibc
#elseif canImport(Musl)
    internal import Musl
#elseif canImport(Darwin)
    internal import Darwin
#endif

/// What one processed sample says about one sensor.
///
/// Gross, tare and net are kept separate at high resolution; ``display`` is the net value
/// rounded to the division, or the reason there is no number to show. An uncalibrated sensor
/// still yields readings: the signal and the flags, with no grams.
public struct Reading: Hashable, Sendable {
    /// What a display shows.
    public enum Display: Hashable, Sendable {
        /// The net load rounded to the division: the count of divisions and its value in grams.
        case grams(divisions: Int64, value: Double)
        /// Above capacity + 9 d, or the ADC is pinned high: show "100%+", never a wrong number.
        case overload
        /// Below the negative zero range, or the ADC is pinned low.
        case underload
        /// No calibration: only the raw signal is meaningful.
        case uncalibrated
        /// Calibrated, but no finite sample has arrived yet.
        case noSignal
    }

    /// The sensor's configured id.
    public var sensor: String
    /// Monotonic nanoseconds of the input sample.
    public var time: UInt64
    /// The input signal, unfiltered (counts or µS).
    public var signal: Double
    /// Gross grams relative to the current zero, high resolution; `nil` when uncalibrated.
    public var gross: Double?
    /// The tare in grams (0 when none).
    public var tare: Double
    /// Gross minus tare, high resolution; `nil` when uncalibrated.
    public var net: Double?
    /// This sample's own net, unfiltered: the net plus the sample's departure from the filtered
    /// value. Noisy, and not a weight to show; it is what sees a load pass through a moment
    /// the filter averages away (a fruit lifted and another set down within a sample or two,
    /// ``ItemDetector``). `nil` when ``net`` is.
    public var sampleNet: Double? = nil
    public var display: Display
    /// The division the display is rounded to.
    public var division: Division
    /// Capacity in grams (100 % force).
    public var capacity: Double
    /// Gross load (everything on the pan, tare included) as a percentage of capacity: the share
    /// of the sensor's full force in use, which is what overload is judged on; `nil` when
    /// uncalibrated.
    public var percentOfCapacity: Double?
    /// Max − min over the stability window stayed within the band.
    public var isStable: Bool
    /// How fast the load changes, in grams per second (``FlowRate``: the least-squares slope over
    /// ``ScaleConfiguration/flowWindow``); nil until a window of valid readings has been seen
    /// since the start, a zero or tare, an overload or a fault.
    public var flow: Double?
    public var isOverload: Bool
    public var isUnderload: Bool
    /// Gross within ±0.25 d of zero (the centre-of-zero indication of OIML R 76-1).
    public var isCentreOfZero: Bool
    /// Net at or above the loaded threshold (20 d by default), or overloaded.
    public var isLoaded: Bool
    /// The calibration in use, or `nil`; ``uncalibratedReason`` then says why.
    public var calibration: Calibration?
    /// Why the sensor runs uncalibrated (never calibrated, or the stored file was refused).
    public var uncalibratedReason: String?
    /// Cues this sample triggered.
    public var cues: [Cue]
    /// Where a running calibration procedure stands, if one runs.
    public var calibrationStep: CalibrationProcedure.Step?
    /// A calibration point completed by this sample.
    public var capturedPoint: CalibrationPoint?

    public var isCalibrated: Bool { calibration != nil }

    /// Gross load as a fraction of capacity for the ForceSketch colour; overload counts as 1.
    public var fractionOfCapacity: Double? {
        if isOverload { return 1 }
        return gross.map { $0 / capacity }
    }

    /// The display as text in `unit`: `"12.3 g"`, `"100%+"`, `"underload"`, `"uncalibrated"` or
    /// `"no signal"`.
    ///
    /// Other units are converted from the rounded grams with enough decimals that one step is
    /// no coarser than the division.
    /// The shown weight as a count of divisions; nil when the display is not a weight.
    public var displayedDivisions: Int64? {
        if case .grams(let divisions, _) = display { divisions } else { nil }
    }

    /// The one value check-weighing and piece counting judge (and the weight a whole load is
    /// classed by): the stable net rounded once to d, in divisions; nil while the load moves
    /// or the display shows no weight (overload, underload, no signal).
    ///
    /// Not the display: its ¼ d hysteresis holds a division while the load sits up to ¾ d from
    /// it, so a verdict on it depended on the way the load came; nor the unrounded net, which a
    /// count judged even while moving. Items are judged on their own rounded weight instead
    /// (``ItemEvent/divisions``), the step between two stable levels rounded once.
    public var judgedDivisions: Int64? {
        guard isStable, case .grams = display, let net, net.isFinite else { return nil }
        return division.round(net).divisions
    }

    public func text(in unit: MassUnit = .gram) -> String {
        switch display {
        case .overload: return "100%+"
        case .underload: return "underload"
        case .uncalibrated: return "uncalibrated"
        case .noSignal: return "no signal"
        case .grams(let divisions, let value):
            if unit == .gram { return division.format(divisions: divisions, suffix: " g") }
            return unit.text(grams: value, step: division.grams)
        }
    }

    /// The percentage as text: `"42 %"`, or `"100%+"` on overload.
    public var percentText: String? {
        if isOverload { return "100%+" }
        guard let percent = percentOfCapacity else { return nil }
        return Reading.fixed(percent, decimals: 0) + " %"
    }

    static func fixed(_ value: Double, decimals: Int) -> String { FixedPoint.text(value, decimals: decimals) }
}
