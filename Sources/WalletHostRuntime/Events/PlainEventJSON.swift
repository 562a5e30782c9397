import Foundation
import WalletWire

/// The JSON of the events every call records (`call`, `service`, `result`) written by hand:
/// the very bytes `JSONEncoder` writes for them (sorted keys, slashes unescaped, ISO 8601
/// time), at a fraction of its cost. Two such events per call went through `JSONEncoder`, a
/// tenth of a daemon's time on warm calls and a discovery of 100 issuers.
///
/// Anything outside the plain shape (a string that needs escaping or is not ASCII, a number
/// `JSONEncoder` might write in another form) gives nil: encode the event with `JSONEncoder`.
enum PlainEventJSON {
    static func encode(_ event: HostEvent) -> Data? {
        var object = PlainEventObject()
        let written: Bool
        switch event.payload {
        case .call(let request), .service(let request): written = write(request, of: event, to: &object)
        case .result(let completion): written = write(completion, of: event, to: &object)
        default: return nil
        }
        guard written, object.string("time", UTCTimestamp.string(from: event.time)) else { return nil }
        return object.finish()
    }

    /// bundleIdentifier, kind, message, method, pid, requestID (then time).
    private static func write(_ request: HostEvent.Request, of event: HostEvent, to object: inout PlainEventObject) -> Bool {
        if let bundle = event.bundleIdentifier, !object.string("bundleIdentifier", bundle) { return false }
        guard object.string("kind", event.kind.rawValue), object.string("message", event.message),
              object.string("method", request.method) else { return false }
        if let pid = event.pid { object.integer("pid", Int(pid)) }
        return object.string("requestID", request.requestID)
    }

    /// bundleIdentifier, footprintBytes, kind, message, method, milliseconds, pid, requestID (then time).
    private static func write(_ completion: HostEvent.Completion, of event: HostEvent, to object: inout PlainEventObject) -> Bool {
        if let bundle = event.bundleIdentifier, !object.string("bundleIdentifier", bundle) { return false }
        if let footprint = completion.footprintBytes { object.integer("footprintBytes", footprint) }
        guard object.string("kind", event.kind.rawValue), object.string("message", event.message),
              object.string("method", completion.method), object.number("milliseconds", completion.milliseconds) else { return false }
        if let pid = event.pid { object.integer("pid", Int(pid)) }
        return object.string("requestID", completion.requestID)
    }
}

/// One JSON object written member by member, in the order given (the caller sorts the keys).
private struct PlainEventObject {
    private var json: [UInt8] = []
    private var first = true

    init() {
        json.reserveCapacity(256)
        json.append(UInt8(ascii: "{"))
    }

    private mutating func key(_ name: StaticString) {
        if !first { json.append(UInt8(ascii: ",")) }
        first = false
        json.append(UInt8(ascii: "\""))
        json.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        json.append(contentsOf: "\":".utf8)
    }

    /// - Returns: false when `value` is not a plain string (escapes, non-ASCII): nothing is written then.
    mutating func string(_ name: StaticString, _ value: String) -> Bool {
        guard WireCodec.isPlainJSONString(value) else { return false }
        key(name)
        json.append(UInt8(ascii: "\""))
        json.append(contentsOf: value.utf8)
        json.append(UInt8(ascii: "\""))
        return true
    }

    mutating func integer(_ name: StaticString, _ value: Int) {
        key(name)
        json.append(contentsOf: String(value).utf8)
    }

    /// - Returns: false when `JSONEncoder` might write `value` in another form.
    mutating func number(_ name: StaticString, _ value: Double) -> Bool {
        guard let text = WireCodec.plainJSONNumber(value) else { return false }
        key(name)
        json.append(contentsOf: text.utf8)
        return true
    }

    consuming func finish() -> Data {
        json.append(UInt8(ascii: "}"))
        return Data(json)
    }
}
