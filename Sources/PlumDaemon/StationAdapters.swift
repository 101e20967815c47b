public import PlumProtocol

/// The transport's hub is where the station's reports go.
extension ClientHub: ReportPublisher {
    public func publishWeight(sensor: String, line: String, frame: BinaryFrame) {
        publish(.weight(sensor: sensor, line: line, frame: frame))
    }

    public func publishRaw(sensor: String, line: String) {
        publish(.raw(sensor: sensor, line: line))
    }

    public func publishEvent(sensor: String, line: String) {
        publish(.event(sensor: sensor, line: line))
    }
}

/// Answers clients' requests with the station.
public struct StationRequestHandler: RequestHandler {
    public let station: Station

    public init(station: Station) { self.station = station }

    public func reply(to request: Request, from client: ClientInfo) async -> [String] {
        await station.reply(to: request)
    }

    public func knownSensors() async -> [String]? {
        await station.sensorNames
    }
}
