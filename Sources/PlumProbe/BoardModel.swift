internal import PlumSystem

/// The board the probe runs on, from the device tree's `model` property.
///
/// A Raspberry Pi's firmware fills it ("Raspberry Pi 4 Model B Rev 1.4"); a PC has no device
/// tree, so the model is absent, which the probe says rather than guesses.
package struct BoardModel: Hashable, Sendable, Encodable, CustomStringConvertible {
    /// The model text, or `nil` when no model file exists.
    package var model: String?
    /// The files that were tried, for the text when none exists.
    package var triedFiles: [String]

    enum CodingKeys: String, CodingKey {
        case model
        case triedFiles = "tried_files"
    }

    package init(model: String?, triedFiles: [String]) {
        self.model = model
        self.triedFiles = triedFiles
    }

    /// Reads the first model file that exists.
    ///
    /// The property is a NUL-terminated string (device-tree specification §2.2.4, `<string>`),
    /// so everything from the first NUL on is dropped, as are surrounding spaces.
    package static func read(_ roots: ProbeRoots) -> BoardModel {
        for file in roots.modelFiles {
            guard case .success(let bytes?) = Syscalls.readWholeFile(file, limit: 4096) else { continue }
            let text = parse(bytes)
            if !text.isEmpty { return BoardModel(model: text, triedFiles: roots.modelFiles) }
        }
        return BoardModel(model: nil, triedFiles: roots.modelFiles)
    }

    /// The model text in a device-tree string property's bytes.
    package static func parse(_ bytes: [UInt8]) -> String {
        let text = String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
        return String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
    }

    /// Whether the board is a Raspberry Pi, whose header the README's wiring is for.
    package var isRaspberryPi: Bool { model?.hasPrefix("Raspberry Pi") ?? false }

    /// "Raspberry Pi 5 Model B Rev 1.0", or why there is none.
    package var description: String {
        model ?? "no device-tree model (\(triedFiles.joined(separator: ", ")) absent): not a Raspberry Pi, or a PC"
    }
}
