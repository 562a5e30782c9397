import Foundation
import Testing
@testable import WalletHostRuntime

/// The event log's timestamps, formatted without ICU.
@Suite("UTCTimestamp")
struct UTCTimestampTests {
    @Test("the same text as Foundation's ISO 8601 format, and it reads back with .iso8601", arguments: [
        0.0, 951_782_400.0 /* 2000-02-29 */, 1_795_415_784.9, 4_102_444_799.0 /* 2099-12-31T23:59:59 */,
    ])
    func matchesFoundation(seconds: Double) throws {
        let date = Date(timeIntervalSince1970: seconds)
        #expect(UTCTimestamp.string(from: date) == date.formatted(.iso8601))
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = UTCTimestamp.encodingStrategy
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        let back = try decoder.decode(Date.self, from: try encoder.encode(date))
        #expect(back == Date(timeIntervalSince1970: seconds.rounded(.down)))
    }
}
