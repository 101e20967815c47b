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

    /// Past 2^50 units the product itself may round to a neighbouring unit, which the writer
    /// corrects by checking the neighbours up to 2^52 units.
    @Test("a double already on the grid of 10^-k prints as the shortest text does, below 2^52 units")
    func onTheGrid() async {
        await propertyCheck(input: Gen.int64(in: -(1 << 52 - 1)...(1 << 52 - 1)), Gen.int(in: 0...9)) {
            units, decimals in
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

    /// The writer's contract: rounded to the grid below 2^50 units, the value itself beyond.
    private func expected(_ value: Double, _ decimals: Int) -> String {
        let units = (value * scale(decimals)).rounded()
        return JSONWriter.number(units.magnitude < 0x1p50 ? units / scale(decimals) : value)
    }

    @Test(
        "edge values: exponent notation, whole numbers from 1e15, 2^50 and 2^52 units, -0, times to the µs",
        arguments: [
            (0.00009999, 8), (0.0001, 4), (0.00012, 5), (-0.00004, 5), (-0.00004, 4), (-0.0, 3), (0.5, 0), (-2.5, 0),
            (4_503_599_627_370_495.5, 1), (1e15, 1), (-1e15, 0), (999_999_999_999_999, 0), (1e16, 0),
            (123_456_789_012.345678, 6),
            (1_795_388_111.110488, 6), (33_554_432.00000028, 8), (34_359_738_368.00179, 5), (152.22603693733885, 4),
            (39.53923037333477, 4), (1e300, 2),
            (1_795_388_111.1104883, 6), (4_102_444_799.999999, 6), (4_503_599_627.370495, 6),
            (-2_251_799_813.685249, 6)
        ] as [(Double, Int)])
    func edges(_ value: Double, _ decimals: Int) {
        #expect(fixed(value, decimals) == expected(value, decimals), "\(value) to \(decimals) places")
        #expect(
            JSONWriter.number(DecimalText.onGrid(value, decimals: decimals)) == expected(value, decimals),
            "onGrid keeps \(value) at \(decimals) places as it is written")
    }

    @Test("the written text reads back as the value on its grid: rounded below 2^50 units, itself beyond")
    func readsBack() async throws {
        struct Decoded: Decodable { var v: Double }
        await propertyCheck(input: Gen.double(in: -5e9...5e9), Gen.int(in: 0...6)) { value, decimals in
            var json = JSONWriter()
            json.add("v", value, decimals: decimals)
            let decoded = try? JSONDecoder().decode(Decoded.self, from: Data(json.finished.utf8))
            let units = (value * scale(decimals)).rounded()
            let onGrid = units.magnitude < 0x1p50 ? units / scale(decimals) : value
            #expect(decoded?.v == onGrid, "\(json.finished)")
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
