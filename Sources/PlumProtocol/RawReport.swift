/// A batch of raw samples of one sensor: `{"class":"RAW","sensor":"left","times":[…],"raw":[…]}`.
public struct RawReport: Hashable, Sendable, Decodable {
    public var sensor: String
    /// Each sample's wall-clock time in seconds since the epoch, to the microsecond
    /// (``ReportGrid/time``).
    public var times: [Double]
    /// Each sample's raw code, as the chip gave it.
    public var raw: [Int32]

    public init(sensor: String, times: [Double], raw: [Int32]) {
        self.sensor = sensor
        self.times = times.map { DecimalText.onGrid($0, decimals: ReportGrid.time) }
        self.raw = raw
    }
}
