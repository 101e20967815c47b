package import PlumProtocol
package import PlumStation
internal import PlumSystem
package import PlumTransport

/// Answers clients' requests with the station, and keeps the services that announce themselves
/// (``ServiceRegistry``) for the `clients` of `?DEVICES`.
package struct StationRequestHandler: RequestHandler {
    package let station: Station
    package let services: ServiceRegistry

    package init(station: Station, services: ServiceRegistry = ServiceRegistry()) {
        self.station = station
        self.services = services
    }

    package func reply(to request: Request, from client: ClientInfo) async -> [Report] {
        switch request {
        case .client(let announcement):
            return [
                services.announce(
                    announcement, client: client.id, uid: client.peer?.uid, now: SystemMonotonicClock().now())
            ]
        case .devices:
            return await station.reply(to: request).map { reply in
                guard case .devices(var devices) = reply else { return reply }
                devices.clients = services.services(now: SystemMonotonicClock().now())
                return .devices(devices)
            }
        default:
            return await station.reply(to: request)
        }
    }

    package func knownSensors() async -> [String]? {
        await station.sensorNames
    }

    package func watchBegan(sensors: [String]) async -> [Report] {
        await station.watchReports(sensors: sensors)
    }

    package func clientClosed(_ client: ClientInfo) {
        services.closed(client: client.id, now: SystemMonotonicClock().now(), wallClock: UTCTimestamp.now())
    }
}
