/// A libmosquitto call that failed, said so that the user can act on it:
///
///     connecting to broker.local:8883: TLS error (MOSQ_ERR_TLS); check ca_file, cert_file and key_file in [mqtt]
package struct MQTTError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What was being done, such as `publishing to plumscale/kitchen/status`.
    package var operation: String
    /// libmosquitto's result code (`MOSQ_ERR_*`).
    package var code: Int
    /// The name of the code, such as `MOSQ_ERR_NO_CONN`.
    package var codeName: String
    /// libmosquitto's own words for it, or the C library's for `MOSQ_ERR_ERRNO`.
    package var message: String
    /// What to do about it, when there is something to do.
    package var hint: String?

    package init(operation: String, code: Int, codeName: String, message: String, hint: String? = nil) {
        self.operation = operation
        self.code = code
        self.codeName = codeName
        self.message = message
        self.hint = hint
    }

    /// The client is not connected right now (`MOSQ_ERR_NO_CONN`): the broker is down or the
    /// connection is being re-made.
    package var isNotConnected: Bool { codeName == "MOSQ_ERR_NO_CONN" }

    package var description: String {
        "\(operation): \(message) (\(codeName))" + (hint.map { "; \($0)" } ?? "")
    }
}
