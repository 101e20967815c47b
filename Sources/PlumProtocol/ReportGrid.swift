/// The decimal grids the real numbers of the per-sample reports (`WEIGHT`, and the times of
/// `RAW`) are kept and sent on.
///
/// On a grid, a number is written digit by digit (``DecimalText``) instead of through the
/// general shortest-text printer, which was most of a report's cost (docs/PERFORMANCE.md,
/// section 4). ``WeightReport`` and ``RawReport`` put their numbers on these grids when they are
/// made, so a report decodes to exactly the values it was made with, and the text is the one the
/// general printer gives those values. Every grid is far finer than what its number can tell:
///
/// - time: the microsecond, the resolution the daemon's clock is read at;
/// - grams (net and tare): a thousandth of the division, at least (0.1 mg at d = 0.1 g, where one
///   HX711 count is about 0.5 mg and the settled noise about 3 mg);
/// - percent of capacity: 10^-5 %, a ten-millionth of full scale, no coarser than a thousandth of
///   a division up to 10 000 divisions (the most OIML R 76 class III allows);
/// - hue: 10^-4 degree, under 3 × 10^-7 of the circle that spans full scale;
/// - the division itself: exact (1, 2 or 5 × 10^k g with k ≥ −6);
/// - the flow rate: 0.01 g/s, about the noise of a 1 s slope at 80 SPS (0.03 g rms), and a
///   change of one 0.1 g division every 10 s; finer digits would be noise.
///
/// Past 2^50 units of its grid, a number is kept and sent as it is (see
/// ``DecimalText/onGrid(_:decimals:)``).
enum ReportGrid {
    /// Decimal places of a report's time in seconds.
    static let time = 6
    /// Decimal places of a percentage of capacity.
    static let percent = 5
    /// Decimal places of the hue in degrees.
    static let hue = 4
    /// Decimal places of the division in grams.
    static let division = 6
    /// Decimal places of the flow rate in grams per second.
    static let flow = 2

    /// Decimal places for grams when the display is rounded to `division` grams: three more than
    /// the division has, at most 9; nil when there is no division or it is not a multiple of
    /// 10^-6 g, and the grams are then kept and sent as they are.
    static func grams(division: Double?) -> Int? {
        guard let division, division.isFinite, division > 0 else { return nil }
        for places in 0...Self.division where DecimalText.onGrid(division, decimals: places) == division {
            return min(places + 3, 9)
        }
        return nil
    }

    /// `value` on the grid of `decimals` places, or as it is when there is no grid.
    static func onGrid(_ value: Double, decimals: Int?) -> Double {
        guard let decimals else { return value }
        return DecimalText.onGrid(value, decimals: decimals)
    }
}
