package import PlumProtocol
internal import PlumStation
package import PlumTransport

/// The station's reports go to the transport's hub: each is encoded once, by the protocol's
/// encoder, and the same bytes are queued for every client that watches.
extension ClientHub: ReportPublisher {
    package func publishWeight(_ report: WeightReport, frame: BinaryFrame) {
        publish(
            .weight(
                sensor: report.sensor, line: Report.weight(report).line, frame: frame,
                shown: report.shownFingerprint))
    }

    package func publishRaw(_ report: RawReport) {
        publish(.raw(sensor: report.sensor, line: Report.raw(report).line))
    }

    package func publishEvent(_ report: Report, sensor: String) {
        publish(.event(sensor: sensor, line: report.line))
    }
}
