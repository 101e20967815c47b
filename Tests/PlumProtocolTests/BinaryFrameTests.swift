import Testing

@testable import PlumProtocol

@Suite("Binary frames")
struct BinaryFrameTests {
    @Test("a frame is 10 bytes, little-endian, laid out as documented")
    func layout() {
        let frame = BinaryFrame(sensorIndex: 2, flags: [.stable, .heaviest], grams: 1.0, raw: -2)
        var bytes: [UInt8] = []
        frame.encode(into: &bytes)
        // 1.0 as float32 is 0x3F800000; -2 as int32 is 0xFFFFFFFE.
        #expect(bytes == [0x02, 0x21, 0x00, 0x00, 0x80, 0x3F, 0xFE, 0xFF, 0xFF, 0xFF])
    }

    @Test(
        "frames round-trip",
        arguments: [
            BinaryFrame(sensorIndex: 0, flags: [], grams: 0, raw: 0),
            BinaryFrame(sensorIndex: 255, flags: [.overload, .cue], grams: 385.5, raw: 8_388_607),
            BinaryFrame(
                sensorIndex: 7, flags: [.underload, .tared, .calibrated, .zeroCentre], grams: -15.4, raw: -8_388_608)
        ])
    func roundTrip(frame: BinaryFrame) throws {
        var bytes: [UInt8] = []
        frame.encode(into: &bytes)
        #expect(bytes.count == BinaryFrame.size)
        #expect(BinaryFrame(decoding: bytes) == frame)
    }

    @Test("anything but exactly 10 bytes is not a frame")
    func wrongLength() {
        #expect(BinaryFrame(decoding: [UInt8](repeating: 0, count: 9)) == nil)
        #expect(BinaryFrame(decoding: [UInt8](repeating: 0, count: 11)) == nil)
    }
}
