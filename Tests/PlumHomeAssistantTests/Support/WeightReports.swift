import PlumProtocol

/// A WEIGHT report as plumscaled sends it, decoded by PlumProtocol (the one decoder).
func weightReport(
    _ sensor: String, grams: Double?, stable: Bool, overload: Bool = false, percent: Double = 10,
    heaviest: Bool = false, time: Double = 1_795_388_111, division: Double? = nil, flow: Double? = nil
) -> WeightReport {
    let divisionField = (division.map { #","division":\#($0)"# } ?? "") + (flow.map { #","flow":\#($0)"# } ?? "")
    let gramsText = grams.map { "\($0)" } ?? "null"
    let line =
        #"{"class":"WEIGHT","sensor":"\#(sensor)","time":\#(time),"grams":\#(gramsText),"display":"x","unit":"g","#
        + #""percent":\#(percent),"stable":\#(stable),"overload":\#(overload),"underload":false,"zero":false,"tare":0,"#
        + ##""heaviest":\##(heaviest),"hue":0,"rgb":"#ff0000","calibrated":true,"signal":1"## + divisionField + "}"
    guard case .weight(let report)? = try? Report.decode(Substring(line)) else { fatalError("bad report \(line)") }
    return report
}

/// The rule of an ALERT report (``alertReport(_:sensor:active:grams:)``), as the bridge keeps it.
func alertRule(_ name: String, sensor: String) -> AlertReport {
    guard case .alert(let alert) = alertReport(name, sensor: sensor, active: false, grams: nil) else {
        fatalError("alertReport gave no ALERT")
    }
    return alert
}
