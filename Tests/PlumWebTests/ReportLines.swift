import PlumProtocol

/// Reports as plumscaled writes them, for the tests that give the board its input directly.
enum Reports {
    struct NotAReport: Error {}

    static func deviceList() throws -> [DevicesReport.Device] {
        guard case .devices(let report) = try Report.decode(Substring(devicesLine)) else { throw NotAReport() }
        return report.devices
    }

    static let devicesLine =
        #"{"class":"DEVICES","devices":[{"sensor":"left","index":0,"kind":"hx711","wiring":"sim","state":"ok","#
        + #""rate":10.1,"nominal_rate":10,"published":50,"discarded":{"spike":2},"not_ready":0,"faults":0,"#
        + #""notices":[],"calibrated":true},{"sensor":"right","index":1,"kind":"hx711","wiring":"sim","#
        + #""state":"settling","rate":9.9,"nominal_rate":10,"published":48,"discarded":{},"not_ready":0,"#
        + #""faults":0,"notices":[],"calibrated":true}]}"#
}

/// A WEIGHT report as plumscaled sends it.
func weight(
    _ sensor: String, grams: Double?, time: Double = 1_795_388_111, stable: Bool = true,
    heaviest: Bool = false, overload: Bool = false, percent: Double = 25
) throws -> Report {
    try Report.decode(
        Substring(
            weightLine(
                sensor, grams: grams, time: time, stable: stable, heaviest: heaviest, overload: overload,
                percent: percent)))
}

/// The JSON line of ``weight(_:grams:time:stable:heaviest:overload:percent:)``, for the fake daemon to push.
func weightLine(
    _ sensor: String, grams: Double?, time: Double = 1_795_388_111, stable: Bool = true,
    heaviest: Bool = false, overload: Bool = false, percent: Double = 25
) -> String {
    let gramsText = grams.map { "\($0)" } ?? "null"
    let display = overload ? "100%+" : grams.map { "\(($0 * 10).rounded() / 10) g" } ?? "no signal"
    return #"{"class":"WEIGHT","sensor":"\#(sensor)","time":\#(time),"grams":\#(gramsText),"display":"\#(display)","#
        + #""unit":"g","percent":\#(percent),"stable":\#(stable),"overload":\#(overload),"underload":false,"#
        + ##""zero":false,"tare":0,"heaviest":\##(heaviest),"hue":90,"rgb":"#80ff00","calibrated":true}"##
}
