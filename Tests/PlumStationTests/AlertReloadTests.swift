import PlumDaemonConfig
import PlumProtocol
import Testing

@testable import PlumStation

@Suite("A reload of the [[alert]] rules, decided without the station")
struct AlertReloadTests {
    static let low = "[[alert]]\nname = \"low\"\nsensor = \"pan\"\nbelow = 200\n"
    static let high = "[[alert]]\nname = \"high\"\nsensor = \"pan\"\nabove = 400\n"
    static let gone = "[[alert]]\nname = \"gone\"\nsensor = \"pan\"\nabove = 300\n"

    @Test("an unchanged rule keeps its state, a changed one starts clear, a removed one is reported removed")
    func keptChangedRemoved() throws {
        var bench = try ChannelBench(extra: Self.low + Self.high + Self.gone)
        bench.feed(350)
        bench.feed(150)
        #expect(bench.channel.alerts.map(\.state.isActive) == [true, false, false], "low raised at 150 g")
        let file = try PlumConfiguration.parse(
            "[[sensor]]\nname = \"pan\"\nkind = \"simulated-hx711\"\n" + Self.low
                + Self.high.replacingOccurrences(of: "400", with: "450"),
            file: "reloaded.toml")
        let reload = AlertReload(file.alerts, replacing: bench.channel.alerts, now: 42)
        #expect(reload.rules.map(\.state.rule.name) == ["low", "high"], "the file's order")
        #expect(reload.rules.map(\.position) == [0, 1], "positions in the reloaded file")
        #expect(reload.rules[0].state.isActive, "low is unchanged: still raised")
        #expect(!reload.rules[1].state.isActive && reload.rules[1].state.rule.threshold == 450, "high starts again")
        #expect(reload.reports.map(\.name) == ["gone", "high"], "the removed rule first, then the changed one")
        #expect(reload.reports[0].removed && !reload.reports[0].active && reload.reports[0].time == 42)
        #expect(!reload.reports[1].removed, "\(reload.reports[1])")
        #expect(reload.summary == "[[alert]] rules: 1 kept, 1 new or changed (high), 1 removed (gone)")
        #expect(reload.log == ["alert gone removed from the configuration"], "\(reload.log)")
    }
}
