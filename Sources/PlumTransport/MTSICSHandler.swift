package import PlumProtocol

/// Answers MT-SICS commands: implemented by the composer with the engine of the sensor the
/// MT-SICS listener serves.
///
/// Calls for one connection come one at a time, in order.
package protocol MTSICSHandler: Sendable {
    /// The complete response (one or more lines, each ended CR LF) to `command`; build it with
    /// ``MTSICSResponse``. For `SIR` this is the first weight; ``repeatedWeights()`` supplies
    /// the rest.
    ///
    /// State-changing commands reach it only from peers the server's ``CommandAuthorization``
    /// permits; the others are answered `EL` by the session.
    func respond(to command: MTSICSCommand, from client: ClientInfo) async -> String

    /// For `SIR`: one `S D …`/`S S …` response per new reading, until the consumer stops
    /// iterating (on `@` or disconnect).
    func repeatedWeights() -> AsyncStream<String>
}
