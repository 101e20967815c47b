public import PlumProtocol
public import PlumStation
public import PlumTransport

/// Answers clients' requests with the station.
public struct StationRequestHandler: RequestHandler {
    public let station: Station

    public init(station: Station) { self.station = station }

    public func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        await station.reply(to: request)
    }

    public func knownSensors() async -> [String]? {
        await station.sensorNames
    }
}
