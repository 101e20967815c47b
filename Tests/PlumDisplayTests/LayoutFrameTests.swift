import PlumDrivers
import PlumProtocol
import Testing

@testable import PlumDisplay

/// The layouts drawn for each panel size, compared pixel for pixel (and cell for cell) with the
/// reference frames in `Frames/`, which docs/display.md shows. A layout change that moves a
/// pixel fails here; when the change is meant, run the suite with PLUMSCALE_RECORD_FRAMES=1,
/// look at the new frames (any image viewer opens a PBM) and commit them.
@Suite("Display layouts against their reference frames")
struct LayoutFrameTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var picture: DisplayPicture
        var phase = 0
        var testDescription: String { name }
    }

    static let cases: [Case] = [
        Case(name: "one-pan", picture: DisplayPicture(body: .pans([Pans.plum]))),
        Case(name: "two-pans", picture: DisplayPicture(body: .pans([Pans.plum, Pans.light]))),
        Case(
            name: "two-pans-wide-second-phase",
            picture: DisplayPicture(body: .pans([Pans.plum, Pans.crate])), phase: 1),
        Case(name: "zero-net", picture: DisplayPicture(body: .pans([Pans.zeroNet]))),
        Case(name: "overload", picture: DisplayPicture(body: .pans([Pans.overload]))),
        Case(name: "stale", picture: DisplayPicture(body: .pans([Pans.stale, Pans.light]))),
        Case(name: "check", picture: DisplayPicture(body: .pans([Pans.checked]))),
        Case(name: "count", picture: DisplayPicture(body: .pans([Pans.counted]))),
        Case(
            name: "session",
            picture: DisplayPicture(
                body: .pans([Pans.plum]), session: SessionLine(name: "crate-12", count: 14, lastItem: "87.3 g"))),
        Case(
            name: "daemon-away",
            picture: DisplayPicture(
                body: .message(
                    title: "plumscaled not running",
                    lines: ["no daemon at /run/plumscale/plumscaled.sock", "scale.local:8385"])))
    ]

    static let pixelSizes = [(128, 64), (128, 32)]
    static let characterSizes = [(16, 2), (20, 4)]

    @Test("each pixel layout draws its reference frame", arguments: cases)
    func pixelFrames(_ example: Case) throws {
        for (width, height) in Self.pixelSizes {
            var frame = MonoBitmap(width: width, height: height)
            PixelLayout.draw(example.picture, on: &frame, phase: example.phase)
            try ReferenceFrames.check(frame.pbm, name: "\(example.name)-\(width)x\(height).pbm")
        }
    }

    @Test("each character layout writes its reference rows", arguments: cases)
    func characterFrames(_ example: Case) throws {
        for (columns, rows) in Self.characterSizes {
            let screen = CharacterLayout.draw(example.picture, columns: columns, rows: rows, phase: example.phase)
            try ReferenceFrames.check(screen.text, name: "\(example.name)-\(columns)x\(rows).txt")
        }
    }
}

/// Example pans, one per thing a display shows.
enum Pans {
    static let plum = PanPicture(
        name: "left", reading: .weight("87.3", unit: "g"), stable: true, heaviest: true, force: 0.227, hue: 81.6)
    static let light = PanPicture(
        name: "right", reading: .weight("34.9", unit: "g"), stable: false, force: 0.09, hue: 32.6)
    static let crate = PanPicture(
        name: "crate", reading: .weight("1234.5", unit: "g"), stable: true, force: 0.6, hue: 216)
    static let zeroNet = PanPicture(
        name: "left", reading: .weight("0.0", unit: "g"), stable: true, centreOfZero: true, net: true, force: 0,
        hue: 0)
    static let overload = PanPicture(name: "left", reading: .overload, force: 1.04, hue: 360)
    static let stale = PanPicture(name: "left", reading: .stale(seconds: 3.5))
    static let checked = PanPicture(
        name: "left", reading: .weight("101.2", unit: "g"), stable: true, force: 0.26, hue: 94.6, verdict: "OVER")
    static let counted = PanPicture(
        name: "left", reading: .weight("50.0", unit: "g"), stable: true, force: 0.13, hue: 46.8, count: "10")
}
