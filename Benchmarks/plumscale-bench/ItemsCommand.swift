import ArgumentParser
import PlumBench
import PlumCore
import PlumDrivers

/// 7. Items: fruit placed and removed one after another, against the known truth.
struct ItemsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "items",
        abstract: "Count seeded plums placed and removed through the engine and the item detector.")

    @Option(help: "The seed for the scripts and the chip model's noise.")
    var seed: UInt64 = 2026

    @Option(help: "Placements (and hands resting) per way of weighing.")
    var actions: Int = 40

    func validate() throws {
        guard (1...10_000).contains(actions) else {
            throw ValidationError("--actions \(actions) is outside 1 ... 10000; the default is 40")
        }
    }

    func run() throws {
        print(
            "PlumScale items benchmark: seed \(seed), \(actions) actions per way of weighing; HX711 model with "
                + "datasheet noise, 1 kg cell, d = 0.1 g; item minimum step 10 d, 250 ms to confirm a level\n")
        print(ItemBenchmark.table(try rows { try $0.run(mode: $1) }))
        print(
            "\nThe edges: a fruit swapped for another through a near-empty dip, a bowl tared with fruit weighed in "
                + "it, and restarts of the daemon with and without fruit on the pan\n")
        print(ItemBenchmark.edgesTable(try rows { try $0.runEdges(mode: $1) }))
    }

    /// One row per rate and way of weighing, 80 SPS first.
    private func rows(
        _ run: (ItemBenchmark, ItemDetection.Mode) throws -> ItemBenchmark.Row
    ) throws -> [ItemBenchmark.Row] {
        try [HX711Rate.sps80, .sps10].flatMap { rate in
            let benchmark = ItemBenchmark(rate: rate, seed: seed, actions: actions)
            return try ItemDetection.Mode.allCases.map { try run(benchmark, $0) }
        }
    }
}
