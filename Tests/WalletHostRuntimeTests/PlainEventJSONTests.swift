import Foundation
import Testing
@testable import WalletHostRuntime
import WalletWire

/// The hand-written JSON of the events every call records is byte for byte what `JSONEncoder`
/// writes for them (the log's settings), and gives way to it for anything outside its shape.
@Suite("PlainEventJSON")
struct PlainEventJSONTests {
    private static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }()

    private func expectSameBytes(_ event: HostEvent, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let reference = try Self.encoder.encode(event)
        let plain = try #require(PlainEventJSON.encode(event), "\(event.kind) was not written by hand", sourceLocation: sourceLocation)
        #expect(String(decoding: plain, as: UTF8.self) == String(decoding: reference, as: UTF8.self), sourceLocation: sourceLocation)
    }

    @Test func callResultAndServiceEventsAreWhatJSONEncoderWrites() throws {
        var generator = SystemRandomNumberGenerator()
        let times = [Date(timeIntervalSince1970: 1_764_000_000), Date(timeIntervalSince1970: 0), Date()]
        let milliseconds: [Double] = [0, 1, 100, 0.5, 0.943534, 22.481251, 1234.5678, 99.99999999, 1e-3, 0.0001, 123456.75]
            + (0..<200).map { _ in Double.random(in: 0..<20_000, using: &generator) }
        for (index, value) in milliseconds.enumerated() {
            let time = times[index % times.count]
            let id = String(index + 1)
            var result = HostEvent(.result(HostEvent.Completion(method: "status", requestID: id, milliseconds: value,
                                                                footprintBytes: index % 3 == 0 ? nil : 1_748_992 + index)),
                                   bundleIdentifier: "com.example.issuer.Status", pid: Int32(1000 + index))
            result.time = time
            if WireCodec.plainJSONNumber(value) != nil { try expectSameBytes(result) }
            var call = HostEvent(.call(HostEvent.Request(method: "passEntries", requestID: id)), bundleIdentifier: nil,
                                 pid: index % 2 == 0 ? nil : 7)
            call.time = time
            try expectSameBytes(call)
            var service = HostEvent(.service(HostEvent.Request(method: "passLibrary.passes", requestID: "h\(id)")),
                                    bundleIdentifier: "com.example.issuer.Status", pid: 42)
            service.time = time
            try expectSameBytes(service)
        }
    }

    @Test func aStringToEscapeOrAnotherKindGoesToJSONEncoder() throws {
        let quoted = HostEvent(.call(HostEvent.Request(method: "say \"hi\"", requestID: "1")), bundleIdentifier: "x", pid: 1)
        #expect(PlainEventJSON.encode(quoted) == nil)
        let accented = HostEvent(.call(HostEvent.Request(method: "status", requestID: "1")), bundleIdentifier: "com.exämple", pid: 1)
        #expect(PlainEventJSON.encode(accented) == nil)
        let stop = HostEvent(.stop(HostEvent.Stop(reason: .requested("done"))), bundleIdentifier: "x", pid: 1)
        #expect(PlainEventJSON.encode(stop) == nil)
        // The log writes every one of them all the same.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("plain-event-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let log = try EventLogFile(directory: directory)
        for event in [quoted, accented, stop] {
            #expect(log.encode(event) == (try Self.encoder.encode(event)))
        }
    }
}
