package import PlumProtocol
package import PlumStation
package import PlumTransport

/// Answers clients' requests with the station.
package struct StationRequestHandler: RequestHandler {
    package let station: Station

    package init(station: Station) { self.station = station }

    package func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        await station.reply(to: request)
    }

    package func knownSensors() async -> [String]? {
        await station.sensorNames
    }

    package func watchBegan(sensors: [String]) async -> [Report] {
        await station.watchReports(sensors: sensors)
    }
}
