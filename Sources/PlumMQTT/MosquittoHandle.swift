internal import CMosquitto

/// Owns one `struct mosquitto *` and the ``EventSink`` its callbacks write to.
///
/// `@unchecked Sendable` is sound because:
/// - the pointer is a `let`, created in `init` and destroyed once, in `deinit` (which also
///   runs when `init` throws after creating it);
/// - everything that is not thread-safe in libmosquitto (options, credentials, TLS, will,
///   callbacks) is done in `init`, before `mosquitto_loop_start` creates the network thread;
/// - what is called afterwards from any thread (`mosquitto_publish`, `_subscribe`,
///   `_unsubscribe`, `_disconnect`, `_loop_stop`) takes libmosquitto's own mutexes, as its
///   threaded mode (`mosquitto_loop_start` turns it on) documents;
/// - `deinit` stops the network thread before `mosquitto_destroy`, so no callback runs on a
///   freed handle or a released sink.
final class MosquittoHandle: @unchecked Sendable {
    let mosq: OpaquePointer
    let sink: EventSink

    init(_ configuration: MQTTConfiguration, sink: EventSink) throws(MQTTError) {
        MosquittoCall.library
        self.sink = sink
        guard let mosq = mosquitto_new(configuration.clientID, configuration.cleanSession, sink.pointer) else {
            let hint =
                configuration.clientID == nil && !configuration.cleanSession
                ? "a random client id needs a clean session; set client_id" : nil
            throw MQTTError(
                operation: "creating the MQTT client", code: Int(MOSQ_ERR_INVAL.rawValue),
                codeName: "MOSQ_ERR_INVAL", message: "libmosquitto refused the settings", hint: hint)
        }
        self.mosq = mosq
        // Every stored property is set, so a throw from here on runs `deinit`, which destroys
        // the handle: destroying it here as well was a double free.
        try configure(configuration).get()
        sink.install(on: mosq)
    }

    private func configure(_ configuration: MQTTConfiguration) -> Result<Void, MQTTError> {
        let level = configuration.protocolVersion == .v5 ? MQTT_PROTOCOL_V5 : MQTT_PROTOCOL_V311
        return MosquittoCall.check(
            mosquitto_int_option(mosq, MOSQ_OPT_PROTOCOL_VERSION, level),
            "setting MQTT \(configuration.protocolVersion.rawValue)"
        ).flatMap {
            guard configuration.username != nil || configuration.password != nil else { return .success(()) }
            return MosquittoCall.check(
                mosquitto_username_pw_set(mosq, configuration.username, configuration.password), "setting the username")
        }.flatMap {
            guard let tls = configuration.tls else { return .success(()) }
            return MosquittoCall.check(
                mosquitto_tls_set(mosq, tls.caFile, tls.caDirectory, tls.certificateFile, tls.keyFile, nil),
                "setting up TLS (CA \(tls.caFile ?? tls.caDirectory ?? "none"), "
                    + "certificate \(tls.certificateFile ?? "none"))"
            )
        }.flatMap {
            guard let will = configuration.will else { return .success(()) }
            return will.payload.withUnsafeBytes { bytes in
                MosquittoCall.check(
                    mosquitto_will_set(
                        mosq, will.topic, Int32(bytes.count), bytes.baseAddress,
                        Int32(will.qos.rawValue), will.retain),
                    "setting the last will on \(will.topic)")
            }
        }.flatMap {
            let delays = configuration.reconnectDelay
            return MosquittoCall.check(
                mosquitto_reconnect_delay_set(
                    mosq, UInt32(max(1, delays.lowerBound)), UInt32(max(1, delays.upperBound)), true),
                "setting the reconnect delay")
        }
    }

    deinit {
        mosquitto_loop_stop(mosq, true)
        mosquitto_destroy(mosq)
    }
}
