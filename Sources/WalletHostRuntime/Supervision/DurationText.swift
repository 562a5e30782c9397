import Foundation

/// A duration as a person types it on a command line: `250ms`, `2s`, `1.5s`, `300` (milliseconds).
///
/// Every option that takes a duration reads it here, so each refuses the same things with a
/// sentence naming the option and the text: what is not a number, NaN and infinity, a negative
/// time, and anything longer than ``maximum`` (a bigger number would not fit a `Duration`'s
/// microseconds, which crashed the host).
public enum DurationText {
    /// The longest duration any option accepts: 24 hours.
    public static let maximum: Duration = .seconds(24 * 60 * 60)

    /// ``maximum`` as people read it.
    public static let maximumText = "24 h"

    /// Why a text is not a usable duration.
    public enum Problem: Error, Sendable, Equatable {
        /// Not a number with `ms` or `s` (or none), or NaN or infinite.
        case notADuration
        /// Below zero.
        case negative
        /// Over ``DurationText/maximum``.
        case tooLong
    }

    /// Parses `250ms`, `2s`, `1.5s` or `300` (milliseconds), from zero to ``maximum``.
    public static func parse(_ text: String) -> Result<Duration, Problem> {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let number: Substring
        let microsecondsPerUnit: Double
        if trimmed.hasSuffix("ms") {
            (number, microsecondsPerUnit) = (trimmed.dropLast(2), 1000)
        } else if trimmed.hasSuffix("s") {
            (number, microsecondsPerUnit) = (trimmed.dropLast(), 1_000_000)
        } else {
            (number, microsecondsPerUnit) = (Substring(trimmed), 1000)
        }
        // Double also reads "nan", "inf" and hexadecimal; a duration is decimal digits.
        guard number.first.map({ $0.isASCII && ($0.isNumber || $0 == "." || $0 == "-" || $0 == "+") }) == true,
              !number.lowercased().contains("x"), let value = Double(number), value.isFinite else {
            return .failure(.notADuration)
        }
        guard value >= 0 else { return .failure(.negative) }
        let microseconds = value * microsecondsPerUnit
        guard microseconds <= maximumMicroseconds else { return .failure(.tooLong) }
        return .success(.microseconds(Int64(microseconds.rounded(.towardZero))))
    }

    /// Parses the value of `option`, throwing a sentence that names the option and the text.
    /// - Parameters:
    ///   - text: What was typed.
    ///   - option: The option as typed, with its dashes (`--idle-timeout`).
    ///   - example: Durations shown in the message (`30s or 500ms`).
    ///   - allowsZero: Whether zero is a meaningful value for this option.
    /// - Throws: ``ConfigurationError`` naming the option and the text.
    public static func parse(_ text: String, option: String, example: String, allowsZero: Bool = true)
        throws(ConfigurationError) -> Duration {
        switch parse(text) {
        case .success(let duration):
            guard allowsZero || duration > .zero else {
                throw ConfigurationError("\(option) expects a duration above zero such as \(example), not \"\(text)\"")
            }
            return duration
        case .failure(let problem):
            throw ConfigurationError(sentence(problem, option: option, text: text, example: example))
        }
    }

    /// A duration in milliseconds from a number (a client's `deadlineMs`), bounded as typed ones are.
    /// - Returns: nil for NaN, infinity, a negative number or more than ``maximum``.
    public static func milliseconds(_ value: Double) -> Duration? {
        guard value.isFinite, value >= 0, value * 1000 <= maximumMicroseconds else { return nil }
        return .microseconds(Int64((value * 1000).rounded(.towardZero)))
    }

    /// The sentence for `problem` with the value `text` of `option`.
    static func sentence(_ problem: Problem, option: String, text: String, example: String) -> String {
        switch problem {
        case .notADuration:
            "\(option) expects a duration such as \(example), not \"\(text)\""
        case .negative:
            "\(option) expects a duration of zero or more, not \"\(text)\""
        case .tooLong:
            "\(option): \"\(text)\" is longer than \(maximumText), the longest duration accepted"
        }
    }

    private static let maximumMicroseconds = Double(maximum.components.seconds) * 1_000_000
}
