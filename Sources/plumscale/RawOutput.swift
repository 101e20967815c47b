import PlumDrivers
import PlumHardware
import PlumCore
import PlumProtocol

#if canImport(Glibc)
import Glibc
#endif

/// How `plumscale raw` prints samples and its summary: text for people, JSON lines for scripts.
struct RawOutput {
    let json: Bool
    let info: SourceInfo

    func header() {
        guard !json else { return }
        print("\(info.name): \(info.kind), \(info.wiring)")
        for notice in info.notices { print("note: \(notice)") }
        flush()
    }

    /// A line about how the sampler runs (priority, memory locking): text only, to standard
    /// error in JSON mode so the JSON lines stay clean.
    func note(_ text: String) {
        if json { printError("note: \(text)") } else { print("note: \(text)") }
        flush()
    }

    func sample(_ sample: Sample, since start: MonotonicInstant) {
        if json {
            var line = JSONWriter()
            line.add("sensor", info.name)
            line.add("time", sample.time.seconds)
            line.add("raw", sample.raw)
            line.add("signal", sample.signal)
            line.add("flags", strings: sample.flags.names)
            if let edge = sample.edgeTime { line.add("edge_time", edge.seconds) }
            if !sample.discarded.isEmpty { line.add("discarded", object: discardObject(sample.discarded)) }
            print(line.finished)
        } else {
            let offset = Double(sample.time.nanoseconds(since: start)) / 1e9
            var text = "\(pad(format(offset, decimals: 4), 10)) s  raw \(pad(String(sample.raw), 9))"
            if info.signal != .loadCellCounts {
                let label = info.signal == .fsrConductance ? "conductance" : "signal"
                text += "  \(label) \(format(sample.signal, decimals: 3))"
                text += info.signal == .fsrConductance ? " µS" : " mV"
            }
            if !sample.flags.isEmpty { text += "  [\(sample.flags)]" }
            if !sample.discarded.isEmpty {
                text += "  (discarded before: " + sample.discarded.reasons.map { "\($0.count) \($0.reason)" }.joined(separator: ", ") + ")"
            }
            print(text)
        }
        flush()
    }

    func summary(samples: Int, elapsed: Double, statistics: DriverStatistics) {
        // The rate between the first and last sample: n samples span n - 1 intervals.
        let rate = samples > 1 && elapsed > 0 ? Double(samples - 1) / elapsed : 0
        let operationsPerSample = statistics.published > 0
            ? Double(statistics.hardwareOperations) / Double(statistics.published) : 0
        if json {
            var summary = JSONWriter()
            summary.add("sensor", info.name)
            summary.add("kind", info.kind)
            summary.add("samples", samples)
            summary.add("elapsed_s", elapsed)
            summary.add("rate", rate)
            summary.add("nominal_rate", info.nominalRate)
            summary.add("discarded", object: discardObject(statistics.discarded))
            summary.add("not_ready", statistics.notReady)
            summary.add("saturated", statistics.saturated)
            summary.add("hardware_operations_per_sample", operationsPerSample)
            summary.add("notices", strings: info.notices)
            var line = JSONWriter()
            line.add("summary", object: summary)
            print(line.finished)
        } else {
            print("--")
            print("\(samples) samples in \(format(elapsed, decimals: 2)) s: \(format(rate, decimals: 1)) SPS achieved (\(format(info.nominalRate)) nominal)")
            let reasons = statistics.discarded.reasons
            print(reasons.isEmpty
                ? "discarded: none"
                : "discarded: " + reasons.map { "\($0.count) (\($0.reason))" }.joined(separator: ", "))
            if statistics.notReady > 0 { print("not ready: \(statistics.notReady) waits timed out") }
            if statistics.saturated > 0 { print("saturated: \(statistics.saturated) samples at the end of the ADC's range") }
            if operationsPerSample > 0 { print("hardware operations per sample: \(format(operationsPerSample, decimals: 1))") }
            for notice in info.notices { print("note: \(notice)") }
        }
        flush()
    }

    private func discardObject(_ counts: DiscardCounts) -> JSONWriter {
        var object = JSONWriter()
        for (key, count) in counts.byKey { object.add(JSONWriter.Key(key), count) }
        return object
    }

    /// Flushes every stdio stream, so each line reaches a pipe as it is made.
    private func flush() { fflush(nil) }
}

/// A number with a fixed count of decimals.
func format(_ value: Double, decimals: Int = 0) -> String {
    value.isFinite ? FixedPoint.text(value, decimals: decimals) : "\(value)"
}

func pad(_ text: String, _ width: Int) -> String {
    text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
}
