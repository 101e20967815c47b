package import PlumCore
package import PlumProtocol
package import PlumStation
package import PlumTransport

/// The MT-SICS balance: one sensor of the station, weighed, zeroed and tared with the exact
/// responses of a METTLER TOLEDO balance (docs/protocol.md has the table).
///
/// Authorization is not decided here: the session answers `EL` to a state-changing command
/// from a peer that may not send it, before it reaches this handler.
package struct StationBalance: MTSICSHandler {
    package let station: Station
    /// The sensor this balance weighs with (`[daemon] mtsics_sensor`).
    package let sensor: String
    /// The display step: the decimals of every value sent.
    package let division: Division
    package let capacityGrams: Double
    /// How long `S`, `Z` and `T` wait for a stable reading before `S I`, `Z I`, `T I`.
    package let stableTimeout: Duration
    /// What `I4` and `@` answer.
    package let serialNumber: String

    package init(
        station: Station, sensor: String, division: Division, capacityGrams: Double,
        stableTimeout: Duration = .seconds(10), serialNumber: String = "PLUM0001"
    ) {
        self.station = station
        self.sensor = sensor
        self.division = division
        self.capacityGrams = capacityGrams
        self.stableTimeout = stableTimeout
        self.serialNumber = serialNumber
    }

    package func respond(to command: MTSICSCommand, from client: ClientInfo) async -> String {
        switch command {
        case .reset, .inquiry(4):
            return MTSICSResponse.text("I4", serialNumber)
        case .inquiry(0):
            return MTSICSResponse.commandList()
        case .inquiry(1):
            // Levels 0 and 1 (in part), and the version of each level implemented.
            return MTSICSResponse.texts("I1", ["01", "1.00", "1.00", "", ""])
        case .inquiry(2):
            return MTSICSResponse.texts(
                "I2", ["PlumScale \(MTSICSResponse.value(capacityGrams, decimals: division.decimals)) g"])
        case .inquiry(3):
            return MTSICSResponse.texts("I3", [DaemonVersion.release])
        case .inquiry:
            return MTSICSResponse.syntaxError
        case .immediateWeight, .immediateWeightRepeat:
            guard await station.sensorNames.contains(sensor) else { return MTSICSResponse.logicalError }
            return Self.weight(await station.currentReading(of: sensor), id: "S")
        case .stableWeight:
            let outcome = await station.whenStable(sensor, timeout: stableTimeout, .weigh)
            if outcome.unknownSensor { return MTSICSResponse.logicalError }
            if outcome.outage != nil { return MTSICSResponse.notExecutable("S") }
            if outcome.timedOut { return Self.notExecutable("S", outcome.reading) }
            return Self.weight(outcome.reading, id: "S")
        case .zero:
            return Self.zeroResponse(await station.whenStable(sensor, timeout: stableTimeout, .zero), id: "Z")
        case .zeroImmediately:
            return Self.zeroResponse(await station.actNow(sensor, .zero), id: "ZI")
        case .tare:
            return tareResponse(await station.whenStable(sensor, timeout: stableTimeout, .tare), id: "T")
        case .tareImmediately:
            return tareResponse(await station.actNow(sensor, .tare), id: "TI")
        case .tareQuery:
            guard let tare = await station.tare(of: sensor) else { return MTSICSResponse.logicalError }
            return MTSICSResponse.tareValue(grams: division.round(tare).grams, decimals: division.decimals)
        case .tarePreset(let grams):
            switch await station.presetTare(sensor, grams: grams) {
            case nil: return MTSICSResponse.logicalError
            case .success(let tare)?:
                return MTSICSResponse.tareValue(grams: division.round(tare).grams, decimals: division.decimals)
            case .failure(let refusal)?:
                switch refusal.code {
                case .invalidWeight: return MTSICSResponse.parameterError("TA")
                case .sensorUnavailable: return MTSICSResponse.notExecutable("TA")
                default: return MTSICSResponse.logicalError
                }
            }
        case .tareClear:
            return await station.clearTare(sensor) ? MTSICSResponse.done("TAC") : MTSICSResponse.logicalError
        }
    }

    package func repeatedWeights() -> AsyncStream<String> {
        let (lines, continuation) = AsyncStream.makeStream(of: String.self, bufferingPolicy: .bufferingNewest(1))
        let station = self.station
        let sensor = self.sensor
        let forwarding = Task {
            // nil: the sensor stopped delivering, and `S I` says so until it is back.
            for await reading in await station.readings(of: sensor) {
                continuation.yield(Self.weight(reading, id: "S"))
            }
            continuation.finish()
        }
        continuation.onTermination = { _ in forwarding.cancel() }
        return lines
    }

    // MARK: - Mapping readings and refusals to responses

    /// `S S …`/`S D …` for a reading; `S +`/`S -` over or under the range; `S I` with no
    /// current reading (none yet, or a sensor that delivers no samples); `EL` for an
    /// uncalibrated sensor, which has no grams to send.
    package static func weight(_ reading: Reading?, id: String) -> String {
        guard let reading else { return MTSICSResponse.notExecutable(id) }
        if reading.isOverload { return MTSICSResponse.overRange(id) }
        if reading.isUnderload { return MTSICSResponse.underRange(id) }
        switch reading.display {
        case .grams(_, let value):
            return MTSICSResponse.weight(
                id: id, status: reading.isStable ? .stable : .dynamic, grams: value, decimals: reading.division.decimals
            )
        case .uncalibrated:
            return MTSICSResponse.logicalError
        case .noSignal, .overload, .underload:
            return MTSICSResponse.notExecutable(id)
        }
    }

    /// `X I` for a wait that found no stable reading, unless the range was left (`X +`/`X -`).
    static func notExecutable(_ id: String, _ reading: Reading?) -> String {
        if reading?.isOverload == true { return MTSICSResponse.overRange(id) }
        if reading?.isUnderload == true { return MTSICSResponse.underRange(id) }
        if reading?.display == .uncalibrated { return MTSICSResponse.logicalError }
        return MTSICSResponse.notExecutable(id)
    }

    /// `Z A` (or `ZI S`/`ZI D`), `Z I`, `Z +`/`Z -` outside the zero range, `EL` uncalibrated.
    static func zeroResponse(_ outcome: WeighingOutcome, id: String) -> String {
        if outcome.unknownSensor { return MTSICSResponse.logicalError }
        if outcome.outage != nil { return MTSICSResponse.notExecutable(id) }
        guard !outcome.timedOut, let result = outcome.result else { return notExecutable(id, outcome.reading) }
        switch result {
        case .success:
            return id == "Z"
                ? MTSICSResponse.done(id)
                : MTSICSResponse.done(id, outcome.reading?.isStable == true ? .stable : .dynamic)
        case .failure(let refusal):
            switch refusal.code {
            case .sensorUnavailable: return MTSICSResponse.notExecutable(id)
            case .outsideZeroRange:
                return (outcome.loadFromCalibratedZero ?? 1) > 0
                    ? MTSICSResponse.overRange(id) : MTSICSResponse.underRange(id)
            case .overload: return MTSICSResponse.overRange(id)
            case .underload: return MTSICSResponse.underRange(id)
            case .uncalibrated: return MTSICSResponse.logicalError
            default: return MTSICSResponse.notExecutable(id)
            }
        }
    }

    /// `T S <tare> g` (or `TI S|D <tare> g`), `T I`, `T +` overload, `T -` below zero, `EL`
    /// uncalibrated.
    func tareResponse(_ outcome: WeighingOutcome, id: String) -> String {
        if outcome.unknownSensor { return MTSICSResponse.logicalError }
        if outcome.outage != nil { return MTSICSResponse.notExecutable(id) }
        guard !outcome.timedOut, let result = outcome.result else { return Self.notExecutable(id, outcome.reading) }
        switch result {
        case .success(let tare):
            let status: MTSICSResponse.Status = id == "T" || outcome.reading?.isStable == true ? .stable : .dynamic
            return MTSICSResponse.weight(
                id: id, status: status, grams: division.round(tare).grams, decimals: division.decimals)
        case .failure(let refusal):
            switch refusal.code {
            case .overload: return MTSICSResponse.overRange(id)
            case .underload, .negativeTare: return MTSICSResponse.underRange(id)
            case .uncalibrated: return MTSICSResponse.logicalError
            default: return MTSICSResponse.notExecutable(id)
            }
        }
    }
}
