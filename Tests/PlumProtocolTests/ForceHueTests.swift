import Testing

@testable import PlumProtocol

@Suite("ForceSketch hue")
struct ForceHueTests {
    struct HueCase: Sendable, CustomStringConvertible {
        var fraction: Double
        var degrees: Double
        var rgb: [UInt8]
        var description: String { "\(fraction) of capacity → \(degrees)°" }
    }

    @Test(
        "red at 0, green at 1/3, blue at 2/3, red again at full scale; clamped outside",
        arguments: [
            HueCase(fraction: 0, degrees: 0, rgb: [255, 0, 0]),
            HueCase(fraction: 1.0 / 6, degrees: 60, rgb: [255, 255, 0]),
            HueCase(fraction: 1.0 / 3, degrees: 120, rgb: [0, 255, 0]),
            HueCase(fraction: 0.5, degrees: 180, rgb: [0, 255, 255]),
            HueCase(fraction: 2.0 / 3, degrees: 240, rgb: [0, 0, 255]),
            HueCase(fraction: 1, degrees: 360, rgb: [255, 0, 0]),
            HueCase(fraction: 1.7, degrees: 360, rgb: [255, 0, 0]),
            HueCase(fraction: -0.2, degrees: 0, rgb: [255, 0, 0])
        ])
    func mapping(_ example: HueCase) {
        let hue = ForceHue(fraction: example.fraction)
        #expect(abs(hue.degrees - example.degrees) < 1e-9)
        #expect([hue.red, hue.green, hue.blue] == example.rgb)
    }

    @Test("the terminal escape carries the RGB triple")
    func ansi() {
        #expect(ForceHue(fraction: 1.0 / 3).ansiForeground == "\u{1B}[38;2;0;255;0m")
    }

    @Test("#rrggbb is the three channels in two lower-case hex digits each, for every load from 0 to full")
    func hexText() {
        for step in 0...3600 {
            let hue = ForceHue(fraction: Double(step) / 3600)
            let expected =
                "#"
                + [hue.red, hue.green, hue.blue].map { byte in
                    let digits = String(byte, radix: 16)
                    return digits.count == 1 ? "0" + digits : digits
                }.joined()
            #expect(hue.hex == expected, "at \(step)/3600 of capacity: \(hue.hex), not \(expected)")
        }
        #expect(ForceHue(fraction: 0.5).hex == "#00ffff" && ForceHue(fraction: 2.0 / 3).hex == "#0000ff")
    }
}
