import PlumProtocol
import Testing

@Suite("ITEM reports: encoded once in a fixed key order, decoded to the same values")
struct ItemReportTests {
    @Test(
        "an ITEM, placed with a class or removed without an item number, encodes to the documented line and back",
        arguments: [
            #"{"class":"ITEM","sensor":"left","seq":3,"item":2,"event":"placed","grams":87.3,"divisions":873,"#
                + #""gross_after":87.3,"division":0.1,"time":1795388111.25,"flags":[],"weight_class":"large"}"#,
            #"{"class":"ITEM","sensor":"crate","seq":9,"item":null,"event":"removed","grams":1250.5,"#
                + #""divisions":2501,"gross_after":0,"division":0.5,"time":1795388112.5,"flags":["merged"]}"#
        ])
    func roundTrip(line: String) throws {
        guard case .item(let item) = try Report.decode(line[...]) else {
            Issue.record("\(line) did not decode as an ITEM")
            return
        }
        let placed = line.contains(#""placed""#)
        #expect(item.sequence == (placed ? 3 : 9) && item.item == (placed ? 2 : nil))
        #expect(item.grams == (placed ? 87.3 : 1250.5) && item.divisions == (placed ? 873 : 2501), "\(item.grams)")
        #expect(item.weightClass == (placed ? "large" : nil) && item.flags == (placed ? [] : ["merged"]))
        #expect(Report.item(item).line == line + "\n", "the encoder's line differs from the documented one")
    }

    @Test("grams come from the division count, never from a sum that prints as 87.30000000000001")
    func gramsFromDivisions() {
        let report = ItemReport(
            sensor: "left", sequence: 1, item: 1, event: "placed", divisions: 873, grossAfterDivisions: 1_001,
            division: 0.1, time: 10)
        #expect(report.grams == 87.3 && report.grossAfter == 100.1, "\(report.grams) \(report.grossAfter)")
        #expect(Report.item(report).line.contains(#""grams":87.3,"#), "\(Report.item(report).line)")
    }
}
