import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// ISO 8601 timestamps in UTC to the second (`2026-11-23T06:36:24Z`), formatted with `gmtime_r`.
///
/// Foundation's ISO 8601 formatting loads ICU's time-zone data on first use, about 0.65 ms
/// here: the first event a fresh `wallet-host call` writes used to pay it inside the launch
/// it timed. The text is what `JSONEncoder`'s `.iso8601` strategy writes, so readers decode it
/// with `.iso8601` as before.
enum UTCTimestamp {
    static func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        guard gmtime_r(&seconds, &parts) != nil else { return date.formatted(.iso8601) }
        func padded(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return digits.count >= width ? digits : String(repeating: "0", count: width - digits.count) + digits
        }
        return "\(padded(parts.tm_year + 1900, 4))-\(padded(parts.tm_mon + 1, 2))-\(padded(parts.tm_mday, 2))"
            + "T\(padded(parts.tm_hour, 2)):\(padded(parts.tm_min, 2)):\(padded(parts.tm_sec, 2))Z"
    }

    /// A `JSONEncoder` date strategy writing ``string(from:)``.
    static let encodingStrategy = JSONEncoder.DateEncodingStrategy.custom { date, encoder in
        var container = encoder.singleValueContainer()
        try container.encode(string(from: date))
    }
}
