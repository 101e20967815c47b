import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// Piece-count references and check limits in the runtime settings file: kept and read back,
/// written only when there are some, so a file without them is the file it always was.
@Suite("Runtime settings: count references and check limits kept beside the alerts and tares")
struct RuntimeSettingsItemsTests {
    @Test("references and limits load back the same; cleared ones leave no key in the file")
    func roundTrip() throws {
        let directory = try TemporaryDirectory()
        let store = RuntimeSettingsStore(directory: directory.path)
        var settings = RuntimeSettings(tares: ["bowl": 212.5])
        settings.counts["left"] = .init(unitGrams: 2.53, pieces: 10)
        settings.checks["right"] = .init(target: 100, minus: 2, plus: 5, cue: true)
        try store.save(settings).get()
        #expect(try store.load().get() == settings)
        let text = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(text.contains("\"unitGrams\" : 2.53") && text.contains("\"cue\" : true"), "\(text)")

        settings.counts = [:]
        settings.checks = [:]
        try store.save(settings).get()
        let cleared = try String(contentsOfFile: store.path, encoding: .utf8)
        #expect(!cleared.contains("\"counts\"") && !cleared.contains("\"checks\""), "\(cleared)")
        #expect(try store.load().get() == settings)
    }

    @Test("a reference restored from its unit weight counts as the one taken on the pan")
    func restoredReference() throws {
        let taken = try PieceCounter(net: 25.3, pieces: 10, division: .standard)
        let restored = try PieceCounter(unitGrams: taken.unitGrams, pieces: 10, division: .standard)
        #expect(restored == taken)
        #expect(throws: Refusal.self) { try PieceCounter(unitGrams: 0, pieces: 10, division: .standard) }
        #expect(throws: Refusal.self) { try PieceCounter(unitGrams: .nan, pieces: 10, division: .standard) }
    }
}
