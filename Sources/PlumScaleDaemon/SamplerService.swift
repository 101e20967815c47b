internal import PlumStation
internal import PlumTransport
internal import ServiceLifecycle

/// Runs the samplers for the life of the service group: starts them, hands every event to the
/// station, and on graceful shutdown stops them and waits until each has finished.
struct SamplerService: Service {
    let samplers: [Sampler]
    let station: Station
    /// Hears a new STATUS= line whenever a sensor's state changes (`systemctl status` shows it).
    var notifier: SystemdNotifier?
    /// Where the station weighs each sample: the transport's publishing event loop, so that one
    /// thread is woken per sample, not one for the station and then one for the clients.
    var executor: (any TaskExecutor)?

    func run() async throws {
        await withTaskGroup(of: Void.self) { group in
            for sampler in samplers {
                sampler.start()
                group.addTask(executorPreference: executor) {
                    for await event in sampler.events {
                        // The station logs the change, once, with what it means for the weight
                        // (``SensorChannel/enterOutage``); here only systemd's status follows it.
                        if case .state = event { try? notifier?.status(Self.summary(samplers)) }
                        await station.handle(event, from: sampler.name)
                    }
                }
            }
            await gracefulShutdown()
            for sampler in samplers { sampler.stop() }
            await group.waitForAll()
        }
    }

    /// One line for systemd's STATUS=: how many sensors are fine, and each that is not, with why.
    static func summary(_ samplers: [Sampler]) -> String {
        let states = samplers.map { ($0.name, $0.status.state) }
        let troubled = states.filter { $0.1.name != "ok" }
        var line = "\(states.count - troubled.count) of \(states.count) sensors ok"
        if !troubled.isEmpty {
            line += "; " + troubled.map { "\($0.0): \($0.1)" }.joined(separator: "; ")
        }
        // systemd shows one line; a long driver message would be cut anyway.
        return line.count > 300 ? String(line.prefix(299)) + "…" : line
    }

    private func gracefulShutdown() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Task {
                try? await ServiceLifecycle.gracefulShutdown()
                continuation.resume()
            }
        }
    }
}
