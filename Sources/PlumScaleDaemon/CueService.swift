internal import PlumHardware
internal import PlumSensors
internal import ServiceLifecycle

/// Drives the cue line for the life of the service group.
struct CueService: Service {
    let pulser: CuePulser<GPIOOutputRequest>

    func run() async throws {
        await withGracefulShutdownHandler {
            await pulser.run()
        } onGracefulShutdown: {
            pulser.finish()
        }
    }
}
