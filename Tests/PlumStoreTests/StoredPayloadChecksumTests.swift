import Foundation
import PlumCore
import PlumTestSupport
import Testing

@testable import PlumStore

/// The checksum covers the payload's bytes as stored, so a toolchain that prints numbers
/// differently neither invalidates the files already written nor writes ones others reject.
@Suite("Checksum over the stored payload bytes")
struct StoredPayloadChecksumTests {
    static let examples = ShippedFilesTests.calibrationFolder.appendingPathComponent("schema/examples")

    @Test("a file whose numbers another toolchain printed (385.0, 8.01323000000001e3, 0.0) verifies and loads")
    func otherToolchainFile() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let directory = temporary.path
        let source = Self.examples.appendingPathComponent("other-toolchain/left-gain128.json")
        let text = try String(contentsOf: source, encoding: .utf8)
        #expect(text.contains("385.0") && text.contains("e3"), "the fixture no longer has foreign number formats")
        try text.write(toFile: "\(directory)/left-gain128.json", atomically: false, encoding: .utf8)
        let sensor = SensorIdentity(id: "left", model: "hx711", channel: "A", gain: 128)
        let loaded = try #require(try CalibrationStore(directory: directory).load(sensor).get())
        #expect(loaded.capacity == 385)
        // Re-encoding the decoded payload prints 385, not 385.0: a checksum over a re-encoding
        // would refuse this file, which is what every file would suffer on a toolchain change.
        let reencoded = try JSONEncoder().encode(loaded)
        #expect(!String(decoding: reencoded, as: UTF8.self).contains("385.0"))
    }

    @Test("the committed files written before this change still verify", arguments: ["left-gain128", "plum-b"])
    func committedFiles(_ stem: String) throws {
        let bytes = Array(try Data(contentsOf: Self.examples.appendingPathComponent("\(stem).json")))
        let file = try CalibrationFile.decode(bytes, path: stem, expectedSensor: stem).get()
        #expect(StoredJSON.payloadChecksum(bytes) == file.checksum)
    }

    @Test("a changed digit in the payload fails; whitespace and the order of the header fields do not matter")
    func whatTheChecksumCovers() throws {
        let bytes = Array(try Data(contentsOf: Self.examples.appendingPathComponent("left-gain128.json")))
        let text = String(decoding: bytes, as: UTF8.self)
        let label = try #require(StoredJSON.payloadChecksum(bytes))
        let squeezed = text.replacingOccurrences(of: "\n", with: "").replacingOccurrences(of: " : ", with: ":")
        #expect(StoredJSON.payloadChecksum(Array(squeezed.utf8)) == label)
        let changed = text.replacingOccurrences(of: "419.9873", with: "419.9874")
        #expect(StoredJSON.payloadChecksum(Array(changed.utf8)) != label)
        // Spaces inside strings are content: changing them changes the checksum.
        let renamed = text.replacingOccurrences(of: "\"createdAt\" : \"2026", with: "\"createdAt\" : \" 2026")
        #expect(StoredJSON.payloadChecksum(Array(renamed.utf8)) != label)
    }

    @Test("two payload members, or none, give no checksum: which one would be meant is ambiguous")
    func ambiguousPayload() {
        #expect(StoredJSON.payloadChecksum(Array(#"{"payload":{"a":1},"payload":{"a":2}}"#.utf8)) == nil)
        #expect(StoredJSON.payloadChecksum(Array(#"{"checksum":"crc32:00000000"}"#.utf8)) == nil)
        #expect(StoredJSON.payloadChecksum(Array(#"{"payload":{"a":"}"}"#.utf8)) == nil)
        #expect(
            StoredJSON.payloadChecksum(Array(#"{"payload":{"a":"\"}"}}"#.utf8)) != nil,
            "an escaped quote ends no string")
    }

    @Test("a file saved now verifies by its own bytes")
    func savedFile() throws {
        let temporary = try TemporaryDirectory(prefix: "plumcore")
        let directory = temporary.path
        let store = CalibrationStore(directory: directory)
        try store.save(Fixtures.linearCalibration()).get()
        let bytes = Array(try Data(contentsOf: URL(fileURLWithPath: store.path(for: Fixtures.sensor))))
        let file = try CalibrationFile.decode(bytes, path: "x", expectedSensor: Fixtures.sensor.fileStem).get()
        #expect(StoredJSON.payloadChecksum(bytes) == file.checksum)
    }
}
