import FoundationEssentials
import PropertyBased
import Testing
@testable import PlumProtocol

/// The byte writers must give, character for character, the text the String-based formatter
/// gave before them: clients and documentation examples depend on it.
@Suite("Numbers written digit by digit read exactly as the shortest round-tripping text")
struct DecimalTextTests {
    private func fixed(_ value: Double, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        DecimalText.appendFixed(value, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func fixed(units: Int64, _ decimals: Int) -> String {
        var bytes: [UInt8] = []
        DecimalText.appendFixed(units: units, decimals: decimals, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func integer<I: BinaryInteger>(_ value: I) -> String {
        var bytes: [UInt8] = []
        DecimalText.appendInteger(value, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    private func scale(_ decimals: Int) -> Double {
        (0..<decimals).reduce(1.0) { product, _ in product * 10 }
    }

    @Test("whole units of 10^-k print as the shortest text of the nearest double, for every k from 0 to 9")
    func units() async {
        await propertyCheck(input: Gen.int64(in: -(1 << 53)...(1 << 53)), Gen.int(in: 0...9)) { units, decimals in
            let value = Double(units) / scale(decimals)
            #expect(fixed(units: units, decimals) == JSONWriter.number(value), "\(units) × 10^-\(decimals)")
        }
    }

    /// Past 2^50 units the product itself may round to a neighbouring unit; there only the
    /// "rounded, then printed as the rounded double prints" property below holds.
    @Test("a double already on the grid of 10^-k prints as the shortest text does, below 2^50 units")
    func onTheGrid() async {
        await propertyCheck(input: Gen.int64(in: -(1 << 50 - 1)...(1 << 50 - 1)), Gen.int(in: 0...9)) { units, decimals in
            let value = Double(units) / scale(decimals)
            #expect(fixed(value, decimals) == JSONWriter.number(value), "\(units) × 10^-\(decimals)")
        }
    }

    @Test("any double is rounded half away from zero, then printed as the shortest text prints the rounded value")
    func anyDouble() async {
        let magnitudes = Gen.double(in: -1e6...1e6)
        await propertyCheck(input: magnitudes, Gen.int(in: 0...9)) { value, decimals in
            let rounded = (value * scale(decimals)).rounded() / scale(decimals)
            #expect(fixed(value, decimals) == JSONWriter.number(rounded), "\(value) to \(decimals) places")
        }
    }

    @Test("edge values: exponent notation below 1e-4, whole numbers from 1e15 on, past 2^52 units, negative zero, report times to the µs",
          arguments: [
              (0.00009999, 8), (0.0001, 4), (0.00012, 5), (-0.00004, 5), (-0.00004, 4), (-0.0, 3), (0.5, 0), (-2.5, 0),
              (4_503_599_627_370_495.5, 1), (1e15, 1), (-1e15, 0), (999_999_999_999_999, 0), (1e16, 0), (123_456_789_012.345678, 6),
              (1_795_388_111.110488, 6), (33_554_432.00000028, 8), (34_359_738_368.00179, 5), (152.22603693733885, 4), (39.53923037333477, 4), (1e300, 2),
          ] as [(Double, Int)])
    func edges(_ value: Double, _ decimals: Int) {
        let rounded = (value * scale(decimals)).rounded() / scale(decimals)
        #expect(fixed(value, decimals) == JSONWriter.number(rounded), "\(value) to \(decimals) places")
    }

    @Test("the written text reads back as the rounded double")
    func readsBack() async throws {
        struct Decoded: Decodable { var v: Double }
        await propertyCheck(input: Gen.double(in: -5e9...5e9), Gen.int(in: 0...6)) { value, decimals in
            var json = JSONWriter()
            json.add("v", value, decimals: decimals)
            let decoded = try? JSONDecoder().decode(Decoded.self, from: Data(json.finished.utf8))
            #expect(decoded?.v == (value * scale(decimals)).rounded() / scale(decimals), "\(json.finished)")
        }
    }

    @Test("a report's time in whole microseconds prints as the rounded seconds always did")
    func microseconds() async {
        await propertyCheck(input: Gen.int64(in: 0...4_102_444_800_000_000)) { micros in
            #expect(fixed(units: micros, 6) == JSONWriter.number(Double(micros) / 1e6), "\(micros) µs")
        }
    }

    @Test("integers of every width print as String(_:) prints them, the extremes included")
    func integers() async {
        await propertyCheck(input: Gen.int64(in: .min ... .max)) { value in
            #expect(integer(value) == String(value))
            #expect(integer(Int32(truncatingIfNeeded: value)) == String(Int32(truncatingIfNeeded: value)))
            #expect(integer(UInt64(bitPattern: value)) == String(UInt64(bitPattern: value)))
        }
        for value in [Int64.min, Int64.max, 0, -1, 9, 10, 99, 100] {
            #expect(integer(value) == String(value))
        }
        #expect(integer(UInt8.max) == "255")
    }

    @Test("arrays of numbers and integers keep the text they had")
    func arrays() {
        var json = JSONWriter()
        json.add("n", numbers: [1, 2.5, -0.125, .nan, 1e20])
        json.add("i", integers: [Int32.min, 0, Int32.max])
        #expect(json.finished == #"{"n":[1,2.5,-0.125,null,1e+20],"i":[-2147483648,0,2147483647]}"#)
    }
}
