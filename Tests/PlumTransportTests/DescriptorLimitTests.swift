import Testing

@testable import PlumTransport

@Suite("Open-file limit against max_clients")
struct DescriptorLimitTests {
    @Test("each client is a descriptor, MT-SICS clients count again, plus a fixed reserve")
    func neededCountsClients() {
        #expect(DescriptorLimit.needed(clients: 256, mtsics: false) == 256 + DescriptorLimit.reserve)
        #expect(DescriptorLimit.needed(clients: 256, mtsics: true) == 512 + DescriptorLimit.reserve)
    }

    @Test("a soft limit that covers the need is left alone")
    func enoughIsLeftAlone() {
        let decision = DescriptorLimit.decide(needed: 320, soft: 1024, hard: 524_288)
        #expect(decision.newSoft == nil)
        #expect(decision.outcome == .enough(limit: 1024))
    }

    @Test("systemd's default 1024 soft limit is raised to exactly the need when the hard limit allows")
    func raisedToTheNeed() {
        let decision = DescriptorLimit.decide(needed: 4160, soft: 1024, hard: 524_288)
        #expect(decision.newSoft == 4160)
        #expect(decision.outcome == .raised(from: 1024, to: 4160))
    }

    @Test("a hard limit below the need: raise to it and report the shortfall")
    func shortOfTheHardLimit() {
        let decision = DescriptorLimit.decide(needed: 8256, soft: 1024, hard: 4096)
        #expect(decision.newSoft == 4096)
        #expect(decision.outcome == .short(limit: 4096, needed: 8256))
        let nothingToRaise = DescriptorLimit.decide(needed: 8256, soft: 4096, hard: 4096)
        #expect(nothingToRaise.newSoft == nil)
        #expect(nothingToRaise.outcome == .short(limit: 4096, needed: 8256))
    }
}
