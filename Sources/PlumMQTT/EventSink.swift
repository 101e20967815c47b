internal import CMosquitto

/// Where libmosquitto's callbacks, on its network thread, put what happened.
///
/// The callbacks run on the thread `mosquitto_loop_start` made, never on a Swift executor. They
/// copy everything out of libmosquitto's buffers (valid only during the call) into Sendable
/// values and `yield` them into an `AsyncStream` continuation, which is Sendable and safe to
/// call from any thread; Swift concurrency reads them in order from ``MQTTClient/events``.
/// Nothing else crosses threads. No `@unchecked`: every stored property is a Sendable `let`.
final class EventSink: Sendable {
    let continuation: AsyncStream<MQTTEvent>.Continuation
    let protocolVersion: MQTTProtocolVersion

    init(continuation: AsyncStream<MQTTEvent>.Continuation, protocolVersion: MQTTProtocolVersion) {
        self.continuation = continuation
        self.protocolVersion = protocolVersion
    }

    /// The sink behind libmosquitto's `obj` pointer. The pointer is unretained: the handle that
    /// registered it owns the sink and outlives the network thread (its deinit stops the thread
    /// before the sink can be released).
    static func from(_ pointer: UnsafeMutableRawPointer?) -> EventSink? {
        pointer.map { Unmanaged<EventSink>.fromOpaque($0).takeUnretainedValue() }
    }

    var pointer: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    func install(on mosq: OpaquePointer) {
        mosquitto_connect_callback_set(mosq) { _, obj, code in
            guard let sink = EventSink.from(obj) else { return }
            if code == 0 {
                sink.continuation.yield(.connected)
            } else {
                let reason = MosquittoCall.connackReason(code, version: sink.protocolVersion)
                sink.continuation.yield(.connectionRefused(reason: reason))
            }
        }
        mosquitto_disconnect_callback_set(mosq) { _, obj, code in
            guard let sink = EventSink.from(obj) else { return }
            let reason = code == 0 ? nil : String(cString: mosquitto_strerror(code))
            sink.continuation.yield(.disconnected(reason: reason))
        }
        mosquitto_message_callback_set(mosq) { _, obj, message in
            guard let sink = EventSink.from(obj), let message else { return }
            let raw = message.pointee
            let topic = raw.topic.map { String(cString: $0) } ?? ""
            var payload: [UInt8] = []
            if let bytes = raw.payload, raw.payloadlen > 0 {
                payload = Array(UnsafeRawBufferPointer(start: bytes, count: Int(raw.payloadlen)))
            }
            let qos = MQTTQoS(rawValue: Int(raw.qos)) ?? .atMostOnce
            sink.continuation.yield(.message(MQTTMessage(topic: topic, payload: payload, qos: qos, retain: raw.retain)))
        }
        mosquitto_subscribe_callback_set(mosq) { _, obj, messageID, count, granted in
            guard let sink = EventSink.from(obj) else { return }
            let levels = granted.map { Array(UnsafeBufferPointer(start: $0, count: Int(count))).map(Int.init) } ?? []
            sink.continuation.yield(.subscribed(messageID: Int(messageID), grantedQoS: levels))
        }
        mosquitto_publish_callback_set(mosq) { _, obj, messageID in
            EventSink.from(obj)?.continuation.yield(.published(messageID: Int(messageID)))
        }
    }
}
