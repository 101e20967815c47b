internal import PlumSystem

/// One framebuffer the kernel offers (`/sys/class/graphics/fbN`), and what its driver's name says
/// it likely is.
///
/// Read from sysfs alone: `name` (the driver's `fb_fix_screeninfo.id`), `virtual_size` ("W,H")
/// and `bits_per_pixel`. The device file is only looked for, never opened.
package struct FramebufferFinding: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The N of `fbN`.
    package var number: Int
    /// The device file, `/dev/fbN`, as a configuration's `[display] device` names it.
    package var device: String
    /// Whether the device file exists (udev may not have made it, or the tree is a test's).
    package var deviceExists: Bool
    /// The driver's name, such as "fb_ili9341" or "vc4drmfb"; nil when sysfs does not say.
    package var name: String?
    /// `virtual_size`: the buffer's width and height in pixels.
    package var width: Int?
    package var height: Int?
    package var bitsPerPixel: Int?
    package var role: Role

    /// What a framebuffer's driver name tells about it.
    package enum Role: String, Hashable, Sendable, Encodable {
        /// The board's own video output (HDMI, composite): vc4, the firmware's, simpledrm.
        case boardVideo = "board-video"
        /// An SSD1306-class OLED that a kernel driver (ssd1307fb, ssd130x) draws.
        case oled
        /// A small SPI panel: the fbtft drivers (`fb_…`) or a panel's DRM driver (`…drmfb`).
        case smallPanel = "small-panel"
        /// The kernel's virtual framebuffer (vfb), a panel in memory.
        case virtual
        case other
    }

    enum CodingKeys: String, CodingKey {
        case number, device, name, width, height, role
        case deviceExists = "device_exists"
        case bitsPerPixel = "bits_per_pixel"
    }

    package init(
        number: Int, device: String, deviceExists: Bool, name: String?, width: Int?, height: Int?,
        bitsPerPixel: Int?
    ) {
        self.number = number
        self.device = device
        self.deviceExists = deviceExists
        self.name = name
        self.width = width
        self.height = height
        self.bitsPerPixel = bitsPerPixel
        role = Self.role(ofName: name ?? "")
    }

    /// Every `fbN` in the roots' graphics class directory, in number order; none when the
    /// directory is missing (no framebuffer driver loaded).
    package static func all(_ roots: ProbeRoots) -> [FramebufferFinding] {
        guard case .success(let names) = Syscalls.listDirectory(roots.graphicsClassDirectory) else { return [] }
        return names.compactMap(framebufferNumber).sorted().map { number in
            let directory = roots.graphicsClassDirectory + "/fb\(number)/"
            func attribute(_ name: String) -> String? {
                guard case .success(let text) = Syscalls.readSmallFile(directory + name) else { return nil }
                return text.trimmed.isEmpty ? nil : text.trimmed
            }
            let size = attribute("virtual_size").flatMap(parseSize)
            let device = roots.deviceDirectory + "/fb\(number)"
            return FramebufferFinding(
                number: number, device: device, deviceExists: Syscalls.exists(device), name: attribute("name"),
                width: size?.width, height: size?.height, bitsPerPixel: attribute("bits_per_pixel").flatMap { Int($0) })
        }
    }

    /// The N of a class entry named `fbN`; nil for any other name (`fbcon`).
    package static func framebufferNumber(_ entry: String) -> Int? {
        guard entry.hasPrefix("fb") else { return nil }
        let digits = entry.dropFirst(2)
        guard !digits.isEmpty, digits.allSatisfy(\.isASCIIDigit) else { return nil }
        return Int(digits)
    }

    /// `virtual_size` ("320,240") as a width and height.
    package static func parseSize(_ text: String) -> (width: Int, height: Int)? {
        let parts = text.split(separator: ",")
        guard parts.count == 2, let width = Int(String(parts[0]).trimmed), let height = Int(String(parts[1]).trimmed)
        else { return nil }
        return (width, height)
    }

    /// Classifies a driver name: "vc4drmfb", "BCM2708 FB", "simpledrmdrmfb" and "simple" are the
    /// board's video output; "Solomon SSD1307" (ssd1307fb) and "ssd130xdrmfb" an OLED; "fb_…"
    /// (fbtft) and other "…drmfb" (tinydrm, panel-mipi-dbi) a small panel; "Virtual FB" vfb.
    package static func role(ofName name: String) -> Role {
        let lower = name.lowercased()
        if lower.hasPrefix("vc4") || lower.hasPrefix("bcm2708") || lower.hasPrefix("simple") { return .boardVideo }
        if lower.contains("ssd130") || lower.hasPrefix("solomon") { return .oled }
        if lower.hasPrefix("fb_") || lower.hasSuffix("drmfb") { return .smallPanel }
        if lower == "virtual fb" { return .virtual }
        return .other
    }

    /// "/dev/fb1 [fb_ili9341] 320x240, 16 bits per pixel: a small SPI panel (likely); kind = \"framebuffer\"".
    package var description: String {
        var text = device + (name.map { " [\($0)]" } ?? "")
        if let width, let height { text += " \(width)x\(height)" }
        if let bitsPerPixel { text += (width == nil ? " " : ", ") + "\(bitsPerPixel) bits per pixel" }
        let use = deviceExists ? "kind = \"framebuffer\", device = \"\(device)\"" : "no \(device) to open"
        return "\(text): \(likelyDevice); \(use)"
    }

    /// What the driver's name says it is, in words: "a small SPI panel, likely".
    package var likelyDevice: String {
        switch role {
        case .boardVideo: "the board's video output (HDMI), likely"
        case .oled: "an SSD1306-class OLED the kernel draws, likely"
        case .smallPanel: "a small SPI panel, likely"
        case .virtual: "the kernel's virtual framebuffer (vfb)"
        case .other: "a framebuffer PlumScale does not know"
        }
    }
}
