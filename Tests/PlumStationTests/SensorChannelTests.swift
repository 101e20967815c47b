import PlumCore
import PlumDrivers
import PlumProtocol
import PropertyBased
import Testing

@testable import PlumStation

@Suite("A sensor's channel: samples and requests in, reports, alerts, cues and answered waits out")
struct SensorChannelTests {
    @Test("each sample gives one WEIGHT with its own time, its frame, and grams once stable")
    func weightPerSample() throws {
        var bench = try ChannelBench()
        let outputs = bench.feed(120, count: 120)
        let weights = outputs.compactMap(\.weight)
        #expect(weights.count == 120, "one WEIGHT per sample")
        #expect(weights.map(\.report.time) == (1...120).map { ChannelBench.wallTime(UInt64($0)) }, "the samples' times")
        let last = try #require(weights.last)
        #expect(last.report.stable && last.report.grams == 120, "120 g, stable: \(last.report)")
        #expect(last.frame.flags.contains(.stable) && last.frame.grams == 120, "the frame says the same: \(last.frame)")
        #expect(last.report.heaviest && last.frame.flags.contains(.heaviest), "the only loaded pan is the heaviest")
        #expect(outputs.allSatisfy { $0.reading != nil && !$0.interrupted }, "every reading goes to the followers")
        #expect(bench.channel.current == outputs.last?.reading, "the latest reading is current")
        let raw = outputs.compactMap(\.raw)
        let code = Int32(ChannelBench.emptyCounts + ChannelBench.countsPerGram * 120)
        #expect(raw.count >= 120 / 16 && raw.allSatisfy { $0.raw.count <= 16 }, "raw codes in batches: \(raw.count)")
        #expect(raw.flatMap(\.raw) == Array(repeating: code, count: raw.flatMap(\.raw).count), "each sample's code")
    }

    @Test("a fault: the STATE, an unavailable WEIGHT, no current reading; the next sample ends it")
    func fault() throws {
        var bench = try ChannelBench()
        bench.feed(100)
        let outputs = bench.take(.fault(reason: "read failed: EIO"))
        guard case .state(let state)? = outputs.leading.first else {
            Issue.record("no STATE first: \(outputs.leading)")
            return
        }
        #expect(state.state == "fault" && state.reason == "read failed: EIO", "\(state)")
        let weight = try #require(outputs.weight?.report, "an unavailable WEIGHT")
        #expect(weight.grams == nil && !weight.stable && weight.stale == true && weight.state == "fault", "\(weight)")
        #expect(outputs.weight?.frame.grams.isNaN == true, "the frame carries no grams")
        #expect(outputs.interrupted && outputs.reading == nil, "the followers are told the sensor stopped")
        #expect(outputs.log.contains { $0.level == .warning }, "the outage is logged: \(outputs.log)")
        #expect(bench.channel.current == nil && bench.channel.outage != nil)
        let tare = bench.channel.answerAtOnce(.tare)
        #expect(tare?.outage != nil && tare?.result == nil, "no tare on a faulted sensor: \(String(describing: tare))")
        #expect(bench.channel.engine.tare == 0)
        let again = bench.take(100)
        #expect(again.log.contains { $0.message.contains("samples again") }, "the end is logged: \(again.log)")
        #expect(bench.channel.outage == nil && again.weight?.report.stale != true, "weighing again")
        #expect(again.weight?.report.stable == false, "not stable on the first fresh sample")
    }

    @Test("an outage is logged once however often the sampler retries, again only when its state or reason changes")
    func outageLoggedOncePerChange() throws {
        var bench = try ChannelBench()
        bench.feed(100)
        let eio = SensorState.fault(reason: "read failed: EIO")
        let lines = [eio, eio, eio, .starting, eio, .fault(reason: "opening: ENODEV"), .notReady(reason: "DOUT high")]
            .map { bench.take($0).log.map(\.message) }
        #expect(lines[0].count == 1 && lines[0][0].hasPrefix("pan: fault: read failed: EIO"), "the start: \(lines)")
        #expect(lines[1...4].allSatisfy { $0.isEmpty }, "the same fault again, and starting, say nothing: \(lines)")
        #expect(lines[5] == ["pan: now fault: opening: ENODEV"], "a new reason is a change: \(lines)")
        #expect(lines[6] == ["pan: now not-ready: DOUT high"], "a new state is a change: \(lines)")
        let again = bench.take(100).log.map(\.message)
        #expect(again.count == 1 && again[0].contains("samples again"), "the end, once: \(again)")
        #expect(bench.take(100).log.isEmpty, "and the next sample says nothing")
    }

    @Test("a stable wait ends with the outage when the sensor faults while it waits")
    func waitEndsWithOutage() throws {
        var bench = try ChannelBench()
        bench.feed(100)
        bench.feed(150, count: 2)
        bench.waitForStable(7, .tare)
        let outputs = bench.take(.notReady(reason: "DOUT stays high"))
        #expect(outputs.resumes.map(\.token) == [7], "the wait is answered: \(outputs.resumes)")
        #expect(outputs.resumes.first?.outcome.outage == .notReady(reason: "DOUT stays high"))
        #expect(bench.channel.endWait(7) == nil, "and no longer waits")
        #expect(bench.channel.engine.tare == 0, "nothing was tared")
    }

    @Test("a tare wait resumes on the first stable reading, tares there, and asks for the save")
    func tareWaitResumesOnStable() throws {
        var bench = try ChannelBench()
        bench.feed(0)
        bench.feed(80, count: 2)
        #expect(bench.channel.answerAtOnce(.tare) == nil, "a moving load makes the tare wait")
        bench.waitForStable(3, .tare)
        var answered: SensorChannel.Outputs?
        var before: [SensorChannel.Outputs] = []
        for _ in 0..<200 {
            let outputs = bench.take(80)
            guard outputs.resumes.isEmpty else {
                answered = outputs
                break
            }
            before.append(outputs)
        }
        let outputs = try #require(answered, "answered within 2.5 s")
        #expect(before.allSatisfy { $0.reading?.isStable == false }, "no answer while the load moved")
        #expect(outputs.reading?.isStable == true, "answered on the first stable reading")
        let tare = try #require(try outputs.resumes.first?.outcome.result?.get())
        #expect(abs(tare - 80) < 1, "tared the 80 g: \(tare)")
        #expect(bench.channel.engine.tare == tare && bench.channel.zeroTareToSave, "tared, and to be saved")
        #expect(bench.channel.latestIsStale, "the latest net is from before the tare")
        #expect(bench.channel.endWait(3) == nil, "the wait is over")
        #expect(bench.take(80).weight?.report.grams == 0, "the next reading is net of the tare")
    }

    @Test("a wait that sees no stable reading by its deadline times out with the last reading")
    func waitTimesOut() throws {
        var bench = try ChannelBench()
        bench.waitForStable(4, .zero, seconds: 0.1)
        var outputs: [SensorChannel.Outputs] = []
        for step in 0..<12 { outputs.append(bench.take(Double(step) * 20)) }
        let timedOut = outputs.flatMap(\.resumes)
        #expect(timedOut.count == 1 && timedOut[0].outcome.timedOut, "one time-out: \(timedOut)")
        #expect(timedOut.first?.outcome.reading != nil, "with the last reading")
        #expect(bench.channel.engine.zeroOffset == 0, "nothing was zeroed")
    }

    @Test("?TARE, ?ZERO, TA and TAC act through the channel, each marking zero and tare to save")
    func zeroAndTareRequests() throws {
        var bench = try ChannelBench()
        bench.feed(50)
        guard case .command(let tare) = bench.channel.command(.tare) else { throw ChannelTestError.notACommand }
        #expect(tare.ok && tare.command == "TARE" && tare.tare.map { abs($0 - 50) < 1 } == true, "\(tare)")
        #expect(bench.channel.zeroTareToSave)
        bench.channel.zeroTareToSave = false
        bench.feed(50)
        #expect(bench.channel.latest?.net.map { abs($0) < 1e-9 } == true, "the tared load reads 0")
        bench.channel.clearTare()
        #expect(bench.channel.engine.tare == 0 && bench.channel.zeroTareToSave && bench.channel.latestIsStale)
        bench.channel.zeroTareToSave = false
        #expect(try bench.channel.presetTare(grams: 12.5).get() == 12.5 && bench.channel.zeroTareToSave)
        bench.channel.clearTare()
        bench.feed(0)
        bench.feed(3, count: 2)
        guard case .command(let moving) = bench.channel.command(.zero) else { throw ChannelTestError.notACommand }
        #expect(!moving.ok && moving.reason == "notStable", "no zero on a moving load: \(moving)")
        let now = bench.channel.act(.zero, requireStable: false)
        #expect(now.result.map { (try? $0.get()) != nil } == true, "ZI zeroes on the moving load: \(now)")
        #expect(now.loadFromCalibratedZero != nil, "with the load it zeroed")
    }

    @Test("an alert crossing gives one ALERT and one cue, and no more while the load stays in the hysteresis")
    func alertOnceWithHysteresis() throws {
        var bench = try ChannelBench(
            extra: "[[alert]]\nname = \"low\"\nsensor = \"pan\"\nbelow = 200\nhysteresis = 50\ncue = true")
        #expect(bench.feed(300).flatMap(\.alertReports).isEmpty, "300 g is not below 200 g")
        let raised = bench.feed(150)
        let alerts = raised.flatMap(\.alertReports)
        try #require(alerts.count == 1, "raised once: \(alerts)")
        #expect(alerts[0].active && alerts[0].name == "low" && (alerts[0].grams ?? 999) < 200, "\(alerts[0])")
        let raising = try #require(raised.first { !$0.alertReports.isEmpty })
        #expect(raising.cues.contains(.alert(name: "low")), "the raise sounds the cue: \(raising.cues)")
        #expect(raising.alertReports[0].time == raising.weight?.report.time, "at the time of its sample")
        #expect(raising.log.contains { $0.message.contains("alert low raised") }, "\(raising.log)")
        let wobble = [210.0, 190, 240, 160, 249].flatMap { bench.feed($0) }
        #expect(wobble.flatMap(\.alertReports).isEmpty, "inside 200 + 50 g: no flapping")
        let cleared = bench.feed(350)
        #expect(cleared.flatMap(\.alertReports).map(\.active) == [false], "cleared once past 250 g")
        #expect(!cleared.flatMap(\.cues).contains(.alert(name: "low")), "no cue for the clear")
    }

    @Test("a load at full capacity gives the max-force cue once, as a CUE report and on the frame")
    func maxForceCue() throws {
        var bench = try ChannelBench(capacity: 200)
        bench.feed(100)
        let full = bench.feed(200)
        let cued = full.filter { $0.cues.contains(.maxForce) }
        #expect(cued.count == 1, "once while the load stays: \(cued.count)")
        #expect(cued.first?.cueReports.map(\.cue) == ["max-force"], "as a CUE report")
        #expect(cued.first?.weight?.frame.flags.contains(.cue) == true, "and on the binary frame")
    }

    @Test("property: one WEIGHT per sample, in sample order, whatever the loads")
    func reportsInSampleOrder() async {
        await propertyCheck(input: Gen.double(in: -20...600).array(of: 1...60)) { loads in
            var bench = try ChannelBench()
            let times = loads.map { bench.take($0).weight?.report.time }
            let expected = (1...loads.count).map { ChannelBench.wallTime(UInt64($0)) }
            #expect(times == expected, "loads \(loads)")
        }
    }

    @Test("property: no stable WEIGHT while faulted, nor on the first sample after a fault")
    func neverStableWhileFaulted() async {
        await propertyCheck(input: Gen.double(in: 0...400).array(of: 1...40), Gen.int(in: 0...200)) { loads, gap in
            var bench = try ChannelBench()
            var faulted = false
            var fresh = 0
            for (step, grams) in loads.enumerated() {
                // Faults come and go on a pattern drawn from `gap`: every few samples.
                if (step + gap) % 7 == 0 {
                    let outputs = bench.take(.fault(reason: "EIO"))
                    #expect(outputs.weight?.report.stable == false && outputs.weight?.report.grams == nil)
                    faulted = true
                    fresh = 0
                    continue
                }
                for outputs in bench.feed(grams, count: 1 + gap % 5) {
                    fresh += 1
                    if faulted && fresh == 1 {
                        #expect(outputs.weight?.report.stable == false, "stable on the first sample after a fault")
                    }
                    #expect(outputs.weight?.report.stale != true, "a sample ends the outage")
                }
            }
        }
    }
}

enum ChannelTestError: Error {
    case notACommand
}
