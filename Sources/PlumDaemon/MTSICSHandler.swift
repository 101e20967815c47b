public import PlumProtocol

/// Answers MT-SICS commands: implemented by the composer with the engine of the sensor the
/// MT-SICS listener serves.
///
/// Calls for one connection come one at a time, in order.
public protocol MTSICSHandler: Sendable {
    /// The complete response (one or more lines, each ended CR LF) to `command`; build it with
    /// ``MTSICSResponse``. For `SIR` this is the first weight; ``repeatedWeights()`` supplies
    /// the rest.
    func respond(to command: MTSICSCommand) async -> String

    /// For `SIR`: one `S D …`/`S S …` response per new reading, until the consumer stops
    /// iterating (on `@` or disconnect).
    func repeatedWeights() -> AsyncStream<String>
}
