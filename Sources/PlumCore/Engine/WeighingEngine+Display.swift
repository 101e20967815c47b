extension WeighingEngine {
    /// The division to show for `net`: the nearest, unless that is next to the one shown and
    /// the load is not yet past the boundary between them by the hysteresis.
    mutating func steadyDivisions(_ net: Double) -> Int64 {
        let division = configuration.division
        let nearest = division.round(net).divisions
        if let shown = shownDivisions, abs(nearest - shown) == 1,
            abs(net - division.grams(divisions: shown)) < (0.5 + configuration.displayHysteresis) * division.grams
        {
            return shown
        }
        shownDivisions = nearest
        return nearest
    }
}
