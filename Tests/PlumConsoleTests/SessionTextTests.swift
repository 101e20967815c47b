import PlumConsole
import PlumProtocol
import Testing

@Suite("A session in words: the histogram and CSV")
struct SessionTextTests {
    @Test("the histogram scales bars to the largest class and lists empty classes with no bar")
    func histogram() {
        let session = SessionSummary(
            name: "c", sensor: "pan", started: "t", division: 0.1, count: 25, total: 1_234.5,
            classes: [.init(name: "small", count: 0), .init(name: "medium", count: 20), .init(name: "large", count: 5)],
            unclassified: 0)
        #expect(SessionText.histogram(session) == "small 0  medium 20 ██████████  large 5 ███")
        #expect(SessionText.running(session).hasPrefix("session c: 25 items, 1234.5 g  small 0"))
    }

    @Test("CSV quotes a class with a comma, and prints grams with the division's decimals")
    func csv() {
        let session = SessionSummary(
            name: "c", sensor: "pan", started: "t", division: 0.5, count: 1, total: 60,
            items: [.init(item: 4, grams: 60, weightClass: "big, round", flags: ["merged", "stacked"], at: "t1")])
        #expect(
            SessionText.csv(session) == "item,grams,class,flags,recorded_at\n4,60.0,\"big, round\",merged;stacked,t1\n")
    }
}
