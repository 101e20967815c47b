internal import PlumCore
internal import PlumProtocol

/// Piece counting (docs/items.md): `?COUNT` takes the stable net on the pan as N pieces, and
/// each stable `WEIGHT` then carries how many pieces its net (rounded to d) is, or the ratio
/// when that is more than 0.3 of a piece from a whole number (``PieceCounter``).
extension SensorChannel {
    /// The reply to `?COUNT` on this sensor: a new reference from the latest stable reading,
    /// or none (counting stops) without `pieces`.
    mutating func count(_ request: CountRequest) -> Report {
        guard let pieces = request.pieces else {
            counter = nil
            return .count(CountReply(sensor: name, ok: true, message: "\(name): counting stopped"))
        }
        let sensor = name
        let refused = { (reason: String, message: String) in
            Report.count(CountReply(sensor: sensor, ok: false, reason: reason, message: message))
        }
        if let outage { return refused("sensorUnavailable", "\(name): no reference: \(outage)") }
        guard let reading = current, !latestIsStale, reading.isStable, case .grams = reading.display,
            let net = reading.net
        else {
            return refused(
                "notStable",
                "\(name): no reference: the load is not stable; keep the \(pieces) pieces still and ask again")
        }
        do {
            let reference = try PieceCounter(
                net: net, pieces: pieces, division: engine.configuration.division,
                minimumWeight: engine.configuration.minimumWeight)
            var optimized = reference
            optimized.optimizes = request.optimize ?? false
            counter = optimized
            let unit = FixedPoint.text(reference.unitGrams, decimals: 4)
            return .count(
                CountReply(
                    sensor: name, ok: true, pieces: pieces, unit: reference.unitGrams, warning: reference.warning,
                    message: "\(name): \(pieces) pieces, one weighs \(unit) g"
                        + (reference.warning.map { "; \($0)" } ?? "")))
        } catch {
            return refused(error.code.rawValue, "\(name): no reference: \(error)")
        }
    }

    /// Puts the count of `reading` into this sample's `WEIGHT`, while counting; with reference
    /// optimisation asked for, a larger unambiguous count becomes the reference first
    /// (``PieceCounter/optimize(_:)``), and the `WEIGHT` says so.
    mutating func countPieces(_ reading: Reading, _ out: inout Outputs) {
        guard out.weight != nil else { return }
        if var counter, counter.optimize(reading) {
            self.counter = counter
            out.weight?.report.countReferenceUpdated = true
            let unit = FixedPoint.text(counter.unitGrams, decimals: 4)
            out.log.append(
                (.notice, "\(name): count reference updated: \(counter.referencePieces) pieces, one weighs \(unit) g"))
        }
        countPieces(reading, into: &out.weight!.report)
    }

    /// Puts the count of `reading` into `report`, while counting: a sample's `WEIGHT` or `?POLL`'s.
    func countPieces(_ reading: Reading, into report: inout WeightReport) {
        // Judged on the stable net rounded once to d, as check-weighing is; none while moving.
        guard let counter, let count = counter.count(reading) else { return }
        switch count {
        case .pieces(let count): report.counted(count, ratio: nil)
        case .ambiguous(let ratio): report.counted(nil, ratio: ratio.isFinite ? ratio : nil)
        case .withheld(let reason): report.counted(nil, ratio: nil, withheld: reason)
        }
    }
}
