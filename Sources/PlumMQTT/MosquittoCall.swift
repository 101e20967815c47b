internal import CMosquitto
internal import PlumSystem

#if canImport(Glibc)
    import Glibc
#endif

/// The one place libmosquitto's integer results become ``MQTTError``s: every call goes through
/// ``check(_:_:)``, which reads `errno` at once for `MOSQ_ERR_ERRNO`.
enum MosquittoCall {
    /// libmosquitto's global state, set up once: `mosquitto_lib_init` is not thread-safe, and
    /// a static `let` is initialised exactly once (swift_once) whichever thread gets there first.
    static let library: Void = { _ = mosquitto_lib_init() }()

    static func check(_ result: Int32, _ operation: @autoclosure () -> String) -> Result<Void, MQTTError> {
        if result == Int32(MOSQ_ERR_SUCCESS.rawValue) { return .success(()) }
        let savedErrno = errno
        return .failure(error(result, operation(), errno: savedErrno))
    }

    static func error(_ result: Int32, _ operation: String, errno savedErrno: Int32 = 0) -> MQTTError {
        let name = codeName(result)
        let message: String
        if result == Int32(MOSQ_ERR_ERRNO.rawValue) && savedErrno != 0 {
            message = Errno(rawValue: savedErrno).description
        } else {
            message = String(cString: mosquitto_strerror(result))
        }
        return MQTTError(operation: operation, code: Int(result), codeName: name, message: message, hint: hint(name))
    }

    /// The words of a CONNACK refusal: MQTT 3.1.1 return codes and MQTT 5 reason codes differ.
    static func connackReason(_ code: Int32, version: MQTTProtocolVersion) -> String {
        switch version {
        case .v311: return String(cString: mosquitto_connack_string(code))
        case .v5: return String(cString: mosquitto_reason_string(code))
        }
    }

    private static func codeName(_ result: Int32) -> String {
        let names: [mosq_err_t: String] = [
            MOSQ_ERR_NOMEM: "MOSQ_ERR_NOMEM", MOSQ_ERR_PROTOCOL: "MOSQ_ERR_PROTOCOL", MOSQ_ERR_INVAL: "MOSQ_ERR_INVAL",
            MOSQ_ERR_NO_CONN: "MOSQ_ERR_NO_CONN", MOSQ_ERR_CONN_REFUSED: "MOSQ_ERR_CONN_REFUSED",
            MOSQ_ERR_NOT_FOUND: "MOSQ_ERR_NOT_FOUND", MOSQ_ERR_CONN_LOST: "MOSQ_ERR_CONN_LOST",
            MOSQ_ERR_TLS: "MOSQ_ERR_TLS",
            MOSQ_ERR_PAYLOAD_SIZE: "MOSQ_ERR_PAYLOAD_SIZE", MOSQ_ERR_NOT_SUPPORTED: "MOSQ_ERR_NOT_SUPPORTED",
            MOSQ_ERR_AUTH: "MOSQ_ERR_AUTH", MOSQ_ERR_ACL_DENIED: "MOSQ_ERR_ACL_DENIED",
            MOSQ_ERR_ERRNO: "MOSQ_ERR_ERRNO",
            MOSQ_ERR_EAI: "MOSQ_ERR_EAI", MOSQ_ERR_MALFORMED_UTF8: "MOSQ_ERR_MALFORMED_UTF8",
            MOSQ_ERR_QOS_NOT_SUPPORTED: "MOSQ_ERR_QOS_NOT_SUPPORTED",
            MOSQ_ERR_OVERSIZE_PACKET: "MOSQ_ERR_OVERSIZE_PACKET"
        ]
        return names[mosq_err_t(rawValue: result)] ?? "MOSQ_ERR_\(result)"
    }

    private static func hint(_ name: String) -> String? {
        switch name {
        case "MOSQ_ERR_TLS":
            return "check the CA, certificate and key files and that the broker speaks TLS on this port"
        case "MOSQ_ERR_EAI": return "check the broker's host name"
        case "MOSQ_ERR_NO_CONN": return "the broker is not connected; the client reconnects by itself"
        case "MOSQ_ERR_MALFORMED_UTF8": return "topics must be valid UTF-8 without wildcards when publishing"
        default: return nil
        }
    }
}
