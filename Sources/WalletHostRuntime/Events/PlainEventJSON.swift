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
        var json = [UInt8]()
        json.reserveCapacity(256)
        json.append(UInt8(ascii: "{"))
        var first = true
        func key(_ name: StaticString) {
            if !first { json.append(UInt8(ascii: ",")) }
            first = false
            json.append(UInt8(ascii: "\""))
            json.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            json.append(contentsOf: "\":".utf8)
        }
        func string(_ value: String) -> Bool {
            guard WireCodec.isPlainJSONString(value) else { return false }
            json.append(UInt8(ascii: "\""))
            json.append(contentsOf: value.utf8)
            json.append(UInt8(ascii: "\""))
            return true
        }
        switch event.payload {
        case .call(let request), .service(let request):
            // bundleIdentifier, kind, message, method, pid, requestID, time
            if let bundle = event.bundleIdentifier {
                key("bundleIdentifier")
                guard string(bundle) else { return nil }
            }
            key("kind")
            guard string(event.kind.rawValue) else { return nil }
            key("message")
            guard string(event.message) else { return nil }
            key("method")
            guard string(request.method) else { return nil }
            if let pid = event.pid {
                key("pid")
                json.append(contentsOf: String(pid).utf8)
            }
            key("requestID")
            guard string(request.requestID) else { return nil }
        case .result(let completion):
            // bundleIdentifier, footprintBytes, kind, message, method, milliseconds, pid, requestID, time
            if let bundle = event.bundleIdentifier {
                key("bundleIdentifier")
                guard string(bundle) else { return nil }
            }
            if let footprint = completion.footprintBytes {
                key("footprintBytes")
                json.append(contentsOf: String(footprint).utf8)
            }
            key("kind")
            guard string(event.kind.rawValue) else { return nil }
            key("message")
            guard string(event.message) else { return nil }
            key("method")
            guard string(completion.method) else { return nil }
            key("milliseconds")
            guard let milliseconds = WireCodec.plainJSONNumber(completion.milliseconds) else { return nil }
            json.append(contentsOf: milliseconds.utf8)
            if let pid = event.pid {
                key("pid")
                json.append(contentsOf: String(pid).utf8)
            }
            key("requestID")
            guard string(completion.requestID) else { return nil }
        default:
            return nil
        }
        key("time")
        guard string(UTCTimestamp.string(from: event.time)) else { return nil }
        json.append(UInt8(ascii: "}"))
        return Data(json)
    }
}
