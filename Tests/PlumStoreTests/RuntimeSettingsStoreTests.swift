import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// The daemon's runtime settings file: written whole and checksummed, read back the same; a
/// damaged file is never used and says why; the library's names and weights are checked.
@Suite("Runtime settings store: alert values and named tares in the state directory")
struct RuntimeSettingsStoreTests {
    static let settings = RuntimeSettings(
        alerts: [
            "fruit-low": .init(threshold: 150, hysteresis: nil, fileThreshold: 200, fileHysteresis: 20)
        ],
        tares: ["bowl": 212.5, "crate 1.2 kg": 1200])

    @Test("what is saved loads back the same; no file loads as no settings")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = RuntimeSettingsStore(directory: directory.path)
        #expect(try store.load().get() == RuntimeSettings())
        try store.save(Self.settings).get()
        #expect(try store.load().get() == Self.settings)
        #expect(!FileManager.default.fileExists(atPath: store.path + ".tmp"), "the temporary file is renamed away")
    }

    @Test("a file edited by hand without its checksum is refused, naming the file and what happens instead")
    func damagedFile() throws {
        let directory = try TemporaryDirectory()
        let store = RuntimeSettingsStore(directory: directory.path)
        try store.save(Self.settings).get()
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        try text.replacingOccurrences(of: "212.5", with: "21.5").write(
            toFile: store.path, atomically: false, encoding: .utf8)
        guard case .failure(let error) = store.load() else {
            Issue.record("a changed file was used")
            return
        }
        #expect(error.code == .checksumMismatch && error.path == store.path, "\(error)")
        #expect(error.hint.contains("tare library starts empty"), "\(error)")
        try "{".write(toFile: store.path, atomically: false, encoding: .utf8)
        #expect(throws: CalibrationStoreError.self) { try store.load().get() }
    }

    @Test(
        "a named tare needs a plain name of 1 to 32 characters, not Home Assistant's none, and a weight above 0 g",
        arguments: [
            ("bowl", 212.0, nil),
            ("crate 1.2 kg", 1200, nil),
            ("", 5, "not allowed"),
            (" bowl", 5, "not allowed"),
            ("a/b", 5, "not allowed"),
            ("None", 5, "Home Assistant reads \"none\" as no choice"),
            ("(none)", 5, "not allowed"),
            (String(repeating: "x", count: 33), 5, "not allowed"),
            ("bowl", 0, "more than 0 g"),
            ("bowl", .nan, "more than 0 g")
        ] as [(String, Double, String?)])
    func tareRules(name: String, grams: Double, problem: String?) {
        var settings = RuntimeSettings()
        let refusal = settings.saveTare(name, grams: grams)
        if let problem {
            #expect(refusal?.description.contains(problem) == true, "\(String(describing: refusal))")
            #expect(settings.tares.isEmpty)
        } else {
            #expect(refusal == nil && settings.tares[name] == grams)
        }
    }

    @Test("the library holds at most 32 named tares; replacing one is always allowed")
    func tareLimit() {
        var settings = RuntimeSettings()
        for index in 0..<RuntimeSettings.tareLimit { #expect(settings.saveTare("t\(index)", grams: 1) == nil) }
        #expect(settings.saveTare("one more", grams: 1)?.description.contains("32 named tares") == true)
        #expect(settings.saveTare("t3", grams: 2) == nil && settings.tares["t3"] == 2)
    }
}
