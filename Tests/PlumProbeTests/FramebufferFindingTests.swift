import PlumProbe
import PlumTestSupport
import Testing

/// The framebuffers listed from a fake sysfs tree: each `fbN` with its name, size and depth,
/// its device file looked for, never opened.
@Suite("Framebuffers found in sysfs")
struct FramebufferFindingTests {
    @Test("each fbN is listed in number order with its name, virtual size, depth and device file")
    func listing() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        let attributes: [(String, [String: String])] = [
            ("fb0", ["name": "vc4drmfb\n", "virtual_size": "1920,1080\n", "bits_per_pixel": "32\n"]),
            ("fb1", ["name": "fb_ili9341\n", "virtual_size": "320,240\n", "bits_per_pixel": "16\n"]),
            ("fb10", [:]),
            ("fbcon", ["name": "not a framebuffer\n"])
        ]
        for (entry, files) in attributes {
            _ = try tree.makeDirectory("sys/class/graphics/" + entry)
            for (name, text) in files { writeFile(tree.file("sys/class/graphics/\(entry)/\(name)"), text) }
        }
        _ = try tree.makeDirectory("dev")
        writeFile(tree.file("dev/fb0"), "")
        writeFile(tree.file("dev/fb1"), "")
        let found = FramebufferFinding.all(ProbeRoots(under: tree.path))
        #expect(found.map(\.number) == [0, 1, 10])
        #expect(found.map(\.device) == [tree.file("dev/fb0"), tree.file("dev/fb1"), tree.file("dev/fb10")])
        #expect(found.map(\.deviceExists) == [true, true, false])
        #expect(found.map(\.name) == ["vc4drmfb", "fb_ili9341", nil])
        #expect(found.map(\.width) == [1920, 320, nil] && found.map(\.height) == [1080, 240, nil])
        #expect(found.map(\.bitsPerPixel) == [32, 16, nil])
        #expect(found.map(\.role) == [.boardVideo, .smallPanel, .other])
        #expect(
            found[1].description
                == "\(tree.file("dev/fb1")) [fb_ili9341] 320x240, 16 bits per pixel: a small SPI panel, likely; "
                + "kind = \"framebuffer\", device = \"\(tree.file("dev/fb1"))\"")
        #expect(found[2].description.hasSuffix("no \(tree.file("dev/fb10")) to open"), "\(found[2].description)")
    }

    @Test("no graphics class directory is no framebuffer, not an error")
    func noFramebuffers() throws {
        let tree = try TemporaryDirectory(prefix: "plumprobe")
        #expect(FramebufferFinding.all(ProbeRoots(under: tree.path)).isEmpty)
    }

    @Test("virtual_size is W,H; anything else is no size")
    func sizes() {
        #expect(FramebufferFinding.parseSize("128,64").map { [$0.width, $0.height] } == [128, 64])
        #expect(FramebufferFinding.parseSize("128x64") == nil)
        #expect(FramebufferFinding.parseSize("128,") == nil)
    }

    struct NameCase: Sendable, CustomTestStringConvertible {
        var name: String
        var role: FramebufferFinding.Role
        var testDescription: String { name }
    }

    @Test(
        "driver names say what a framebuffer likely is",
        arguments: [
            NameCase(name: "vc4drmfb", role: .boardVideo),
            NameCase(name: "BCM2708 FB", role: .boardVideo),
            NameCase(name: "simpledrmdrmfb", role: .boardVideo),
            NameCase(name: "Solomon SSD1307", role: .oled),
            NameCase(name: "ssd130xdrmfb", role: .oled),
            NameCase(name: "fb_st7735r", role: .smallPanel),
            NameCase(name: "mi0283qtdrmfb", role: .smallPanel),
            NameCase(name: "Virtual FB", role: .virtual),
            NameCase(name: "udlfb", role: .other)
        ])
    func roles(_ example: NameCase) {
        #expect(FramebufferFinding.role(ofName: example.name) == example.role)
    }
}
