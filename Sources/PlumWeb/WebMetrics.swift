internal import PlumProtocol
import Prometheus
import Synchronization

/// The Prometheus metrics at `/metrics`, all named `plumscale_…` and labelled by `sensor`.
///
/// | metric | type | from |
/// |---|---|---|
/// | `plumscale_weight_grams` | gauge | each WEIGHT report's net grams (absent while there are none) |
/// | `plumscale_load_percent` | gauge | the force on the cell as % of full scale |
/// | `plumscale_stable` | gauge | 1 while the weight is stable |
/// | `plumscale_overload` | gauge | 1 while overloaded |
/// | `plumscale_overloads_total` | counter | times a pan went into overload |
/// | `plumscale_sensor_state` | gauge | 1 for the sensor's current `state` label (ok, settling, …) |
/// | `plumscale_sample_rate_hertz` | gauge | the rate achieved, from DEVICES |
/// | `plumscale_samples_discarded_total` | counter | the driver's discards, by `reason` |
/// | `plumscale_web_clients` | gauge | browsers watching over WebSocket |
/// | `plumscale_daemon_up` | gauge | 1 while connected to plumscaled |
package final class WebMetrics: Sendable {
    package let registry: PrometheusCollectorRegistry
    private let perSensor = Mutex<[String: SensorGauges]>([:])
    private let discards = Mutex<[String: (counter: Counter, seen: Int)]>([:])
    private let states = Mutex<[String: Gauge]>([:])
    private let clients: Gauge
    private let up: Gauge

    package init(registry: PrometheusCollectorRegistry = PrometheusCollectorRegistry()) {
        self.registry = registry
        clients = registry.makeGauge(descriptor: .plum("plumscale_web_clients", "Browsers watching the live page."))
        up = registry.makeGauge(
            descriptor: .plum("plumscale_daemon_up", "1 while plumscale-web is connected to plumscaled."))
    }

    /// The exposition text.
    package func text() -> String { registry.emitToString() }

    func record(_ weight: WeightReport, previous: WeightReport?) {
        let gauges = gauges(for: weight.sensor)
        if let grams = weight.grams, !weight.overload, !weight.underload { gauges.grams.set(to: grams) }
        if let percent = weight.percent { gauges.percent.set(to: percent) }
        gauges.stable.set(to: weight.stable ? 1 : 0)
        gauges.overload.set(to: weight.overload ? 1 : 0)
        if weight.overload && previous?.overload != true { gauges.overloads.increment() }
    }

    func record(_ devices: [DevicesReport.Device]) {
        for device in devices {
            gauges(for: device.sensor).rate.set(to: device.rate)
            let states = ["ok", "warming-up", "settling", "not-ready", "fault", "starting", "ended", "stopped"]
            for known in states + [device.state] {
                state(device.sensor, known).set(to: known == device.state ? 1 : 0)
            }
            for (reason, count) in device.discarded {
                discards.withLock { table in
                    let key = device.sensor + "\u{0}" + reason
                    var entry =
                        table[key] ?? (
                            registry.makeCounter(
                                descriptor: .plum("plumscale_samples_discarded_total", "Samples the driver discarded."),
                                labels: [("sensor", device.sensor), ("reason", reason)]),
                            0
                        )
                    // The daemon's count is absolute; a restarted daemon starts again from 0.
                    let delta = count >= entry.seen ? count - entry.seen : count
                    if delta > 0 { entry.counter.increment(by: Int64(delta)) }
                    entry.seen = count
                    table[key] = entry
                }
            }
        }
    }

    func browsers(_ count: Int) { clients.set(to: Double(count)) }

    func daemonUp(_ connected: Bool) { up.set(to: connected ? 1 : 0) }

    private func state(_ sensor: String, _ name: String) -> Gauge {
        states.withLock { table in
            let key = sensor + "\u{0}" + name
            if let gauge = table[key] { return gauge }
            let gauge = registry.makeGauge(
                descriptor: .plum("plumscale_sensor_state", "1 for the sensor's current state."),
                labels: [("sensor", sensor), ("state", name)])
            table[key] = gauge
            return gauge
        }
    }

    private func gauges(for sensor: String) -> SensorGauges {
        perSensor.withLock { table in
            if let gauges = table[sensor] { return gauges }
            let gauges = SensorGauges(registry: registry, sensor: sensor)
            table[sensor] = gauges
            return gauges
        }
    }
}

/// One pan's metrics.
private struct SensorGauges: Sendable {
    let grams: Gauge
    let percent: Gauge
    let stable: Gauge
    let overload: Gauge
    let overloads: Counter
    let rate: Gauge

    init(registry: PrometheusCollectorRegistry, sensor: String) {
        let labels = [("sensor", sensor)]
        func gauge(_ name: String, _ help: String) -> Gauge {
            registry.makeGauge(descriptor: .plum(name, help), labels: labels)
        }
        grams = gauge("plumscale_weight_grams", "Net weight on the pan.")
        percent = gauge("plumscale_load_percent", "Force on the cell, % of full scale.")
        stable = gauge("plumscale_stable", "1 while the weight is stable.")
        overload = gauge("plumscale_overload", "1 while overloaded.")
        rate = gauge("plumscale_sample_rate_hertz", "Samples per second achieved.")
        overloads = registry.makeCounter(
            descriptor: .plum("plumscale_overloads_total", "Times the pan went into overload."), labels: labels)
    }
}

extension MetricNameDescriptor {
    /// A `plumscale_…` name, given whole (`plumscale_weight_grams`), with its help text.
    static func plum(_ name: String, _ help: String) -> MetricNameDescriptor {
        MetricNameDescriptor(metricName: name, unitName: "", helpText: help)
    }
}
