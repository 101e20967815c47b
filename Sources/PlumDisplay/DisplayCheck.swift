package import PlumDrivers
package import PlumHardware

/// `plumscale-display --check`: one test screen, the same on every panel of a size, so a frame
/// read back from real hardware can be compared with a model's.
package enum DisplayCheck {
    package static let picture = DisplayPicture(
        body: .pans([
            PanPicture(
                name: "check", reading: .weight("88.8", unit: "g"), stable: true, centreOfZero: false, net: true,
                heaviest: true, force: 0.5, hue: 120)
        ]))

    /// What a framebuffer holds now, as a PPM; nil for a panel that is not one.
    package static func readBack(_ panel: any DisplayPanel) throws(HardwareError) -> String? {
        let inner = (panel as? ReopeningPanel)?.opened ?? panel
        guard let output = inner as? any FramebufferReadable else { return nil }
        return try output.readBackImage().ppm
    }
}

/// A panel whose memory can be read back (a framebuffer).
package protocol FramebufferReadable {
    func readBackImage() throws(HardwareError) -> ColourBitmap
}

extension FramebufferOutput: FramebufferReadable {
    package func readBackImage() throws(HardwareError) -> ColourBitmap { try panel.readBack() }
}
