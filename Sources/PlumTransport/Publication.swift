package import NIOCore
package import PlumProtocol

/// One message for the clients, encoded once: every subscribed client is sent the same bytes.
package struct Publication: Sendable {
    /// What the message is, which decides who receives it.
    package enum Kind: Hashable, Sendable {
        /// A `WEIGHT` report (or, for binary clients, its 10-byte frame).
        case weight
        /// A `RAW` report; only clients that asked for `"raw":true`.
        case raw
        /// Any other report about a sensor (`CUE`, a state change); every JSON watcher of it.
        case event
    }

    package var kind: Kind
    /// The sensor's configured name, matched against `?WATCH`'s `sensors`.
    package var sensor: String
    /// The JSON line, with its newline.
    package var line: ByteBuffer?
    /// The binary frame, for clients that watch with `"binary":true`.
    package var frame: ByteBuffer?
    /// For a `WEIGHT`: a fingerprint of what a display shows of it (``WeightReport/shownFingerprint``);
    /// equal fingerprints of a sensor's reports mean nothing a changes-only watcher shows moved.
    package var shown: Int?

    package init(kind: Kind, sensor: String, line: ByteBuffer?, frame: ByteBuffer?, shown: Int? = nil) {
        self.kind = kind
        self.sensor = sensor
        self.line = line
        self.frame = frame
        self.shown = shown
    }

    /// A `WEIGHT` report from its JSON line (``JSONWriter/line``); a missing newline is added,
    /// since without it the client's framing would be lost.
    package static func weight(
        sensor: String, line: String, frame: BinaryFrame? = nil, shown: Int? = nil
    ) -> Publication {
        var frameBytes: ByteBuffer?
        if let frame {
            var bytes: [UInt8] = []
            bytes.reserveCapacity(BinaryFrame.size)
            frame.encode(into: &bytes)
            frameBytes = ByteBuffer(bytes: bytes)
        }
        return Publication(kind: .weight, sensor: sensor, line: lineBuffer(line), frame: frameBytes, shown: shown)
    }

    /// A `RAW` report with a batch of raw samples.
    package static func raw(sensor: String, line: String) -> Publication {
        Publication(kind: .raw, sensor: sensor, line: lineBuffer(line), frame: nil)
    }

    /// Another report about `sensor`, such as `CUE`.
    package static func event(sensor: String, line: String) -> Publication {
        Publication(kind: .event, sensor: sensor, line: lineBuffer(line), frame: nil)
    }

    private static func lineBuffer(_ line: String) -> ByteBuffer {
        var buffer = ByteBuffer(string: line)
        if !line.hasSuffix("\n") { buffer.writeStaticString("\n") }
        return buffer
    }
}
