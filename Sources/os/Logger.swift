@_exported import Foundation
import WalletExtensionRuntime

/// A log for a subsystem and category (`OSLog`).
public final class OSLog: Sendable {
    /// The subsystem, e.g. `com.example.issuer.WNonUIExt`.
    public let subsystem: String
    /// The category, e.g. `status`.
    public let category: String
    let isEnabled: Bool

    /// A log for `subsystem` and `category`.
    public convenience init(subsystem: String, category: String) {
        self.init(subsystem: subsystem, category: category, isEnabled: true)
    }

    private init(subsystem: String, category: String, isEnabled: Bool) {
        self.subsystem = subsystem
        self.category = category
        self.isEnabled = isEnabled
    }

    /// The log without subsystem or category.
    public static let `default` = OSLog(subsystem: "", category: "", isEnabled: true)
    /// A log that discards everything.
    public static let disabled = OSLog(subsystem: "", category: "", isEnabled: false)

    /// `[subsystem:category] ` when either is set, else nothing.
    var prefix: String {
        if subsystem.isEmpty && category.isEmpty { return "" }
        return "[\(subsystem)\(category.isEmpty ? "" : ":" + category)] "
    }
}

/// A log level (`OSLogType`).
public struct OSLogType: RawRepresentable, Hashable, Sendable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let `default` = OSLogType(rawValue: 0x00)
    public static let info = OSLogType(rawValue: 0x01)
    public static let debug = OSLogType(rawValue: 0x02)
    public static let error = OSLogType(rawValue: 0x10)
    public static let fault = OSLogType(rawValue: 0x11)

    /// The level's name in the host's extension log.
    var name: String {
        switch self {
        case .info: return "info"
        case .debug: return "debug"
        case .error: return "error"
        case .fault: return "fault"
        default: return "notice"
        }
    }
}

/// Writes log messages (`Logger`): every line reaches the host's extension log with its level.
///
/// Interpolated values follow the device's privacy rules, so the log shows what Console would
/// show for a device without a debugger: strings and objects are `<private>` unless marked
/// `privacy: .public`; numbers and booleans are shown unless marked `.private`.
public struct Logger: Sendable {
    let log: OSLog

    /// A logger without subsystem or category.
    public init() {
        log = .default
    }

    /// A logger for `subsystem` and `category`.
    public init(subsystem: String, category: String) {
        log = OSLog(subsystem: subsystem, category: category)
    }

    /// A logger writing to `log`.
    public init(_ log: OSLog) {
        self.log = log
    }

    /// Logs at the default (notice) level.
    public func log(_ message: OSLogMessage) { write(.default, message) }
    /// Logs at `level`.
    public func log(level: OSLogType, _ message: OSLogMessage) { write(level, message) }
    /// Logs at the debug level.
    public func trace(_ message: OSLogMessage) { write(.debug, message) }
    /// Logs at the debug level.
    public func debug(_ message: OSLogMessage) { write(.debug, message) }
    /// Logs at the info level.
    public func info(_ message: OSLogMessage) { write(.info, message) }
    /// Logs at the default (notice) level.
    public func notice(_ message: OSLogMessage) { write(.default, message) }
    /// Logs at the error level (as Apple's `warning` does).
    public func warning(_ message: OSLogMessage) { write(.error, message) }
    /// Logs at the error level.
    public func error(_ message: OSLogMessage) { write(.error, message) }
    /// Logs at the fault level.
    public func critical(_ message: OSLogMessage) { write(.fault, message) }
    /// Logs at the fault level.
    public func fault(_ message: OSLogMessage) { write(.fault, message) }

    private func write(_ level: OSLogType, _ message: OSLogMessage) {
        guard log.isEnabled else { return }
        ExtensionLog.send(level: level.name, message: log.prefix + message.text)
    }
}

/// How an interpolated value may appear in the log (`OSLogPrivacy`).
public struct OSLogPrivacy: Sendable, Equatable {
    enum Kind: Sendable, Equatable { case auto, `public`, `private`, sensitive }

    /// How a redacted value is replaced (`OSLogPrivacy.Mask`).
    public struct Mask: Sendable, Equatable {
        let isHash: Bool
        /// A hash of the value instead of `<private>`.
        public static let hash = Mask(isHash: true)
        /// `<private>`.
        public static let none = Mask(isHash: false)
    }

    let kind: Kind
    let mask: Mask

    /// Strings and objects redacted, scalars shown.
    public static let auto = OSLogPrivacy(kind: .auto, mask: .none)
    /// Shown.
    public static let `public` = OSLogPrivacy(kind: .public, mask: .none)
    /// Redacted.
    public static let `private` = OSLogPrivacy(kind: .private, mask: .none)
    /// Always redacted.
    public static let sensitive = OSLogPrivacy(kind: .sensitive, mask: .none)

    /// Redacted as `mask` says.
    public static func auto(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .auto, mask: mask) }
    /// Redacted as `mask` says.
    public static func `private`(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .private, mask: mask) }
    /// Redacted as `mask` says.
    public static func sensitive(mask: Mask) -> OSLogPrivacy { OSLogPrivacy(kind: .sensitive, mask: mask) }

    /// `text` as the log shows it; `isScalar` for numbers and booleans, which `.auto` shows.
    func apply(to text: String, isScalar: Bool) -> String {
        switch kind {
        case .public: return text
        case .auto where isScalar: return text
        default:
            guard mask.isHash else { return "<private>" }
            var hasher = Hasher()
            hasher.combine(text)
            return "<mask.hash: '\(String(UInt32(truncatingIfNeeded: hasher.finalize()), radix: 16))'>"
        }
    }
}

/// Alignment of an interpolated value (`OSLogStringAlignment`); accepted, not applied.
public struct OSLogStringAlignment: Sendable {
    public static let none = OSLogStringAlignment()
    public static func right(columns: Int) -> OSLogStringAlignment { OSLogStringAlignment() }
    public static func left(columns: Int) -> OSLogStringAlignment { OSLogStringAlignment() }
}

/// How an interpolated integer is written (`OSLogIntegerFormatting`).
public struct OSLogIntegerFormatting: Sendable {
    let radix: Int
    public static let decimal = OSLogIntegerFormatting(radix: 10)
    public static let hex = OSLogIntegerFormatting(radix: 16)
    public static let octal = OSLogIntegerFormatting(radix: 8)
}

/// How an interpolated floating-point number is written (`OSLogFloatFormatting`).
public struct OSLogFloatFormatting: Sendable {
    let precision: Int?
    public static let fixed = OSLogFloatFormatting(precision: nil)
    public static func fixed(precision: @autoclosure () -> Int) -> OSLogFloatFormatting {
        OSLogFloatFormatting(precision: precision())
    }
}

/// A log message with interpolated values (`OSLogMessage`).
public struct OSLogMessage: ExpressibleByStringInterpolation, ExpressibleByStringLiteral, Sendable {
    /// The message as the log shows it, privacy applied.
    let text: String

    public init(stringLiteral value: String) {
        text = value
    }

    public init(stringInterpolation: OSLogInterpolation) {
        text = stringInterpolation.text
    }
}

/// Builds an ``OSLogMessage`` (`OSLogInterpolation`).
public struct OSLogInterpolation: StringInterpolationProtocol, Sendable {
    var text = ""

    public init(literalCapacity: Int, interpolationCount: Int) {
        text.reserveCapacity(literalCapacity + 16 * interpolationCount)
    }

    public mutating func appendLiteral(_ literal: String) {
        text += literal
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> String, align: OSLogStringAlignment = .none,
                                             privacy: OSLogPrivacy = .auto) {
        text += privacy.apply(to: value(), isScalar: false)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> some CustomStringConvertible,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        text += privacy.apply(to: value().description, isScalar: false)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Int, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Int8, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Int16, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Int32, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Int64, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> UInt, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> UInt8, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> UInt16, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> UInt32, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> UInt64, format: OSLogIntegerFormatting = .decimal,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInteger(value(), format: format, privacy: privacy)
    }

    private mutating func appendInteger(_ number: some FixedWidthInteger, format: OSLogIntegerFormatting, privacy: OSLogPrivacy) {
        let written = format.radix == 10 ? String(number) : String(number, radix: format.radix)
        text += privacy.apply(to: format.radix == 16 ? "0x" + written : written, isScalar: true)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Float, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        appendInterpolation(Double(value()), format: format, align: align, privacy: privacy)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Double, format: OSLogFloatFormatting = .fixed,
                                             align: OSLogStringAlignment = .none, privacy: OSLogPrivacy = .auto) {
        let number = value()
        let written = format.precision.map { String(format: "%.\($0)f", number) } ?? String(number)
        text += privacy.apply(to: written, isScalar: true)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> Bool, privacy: OSLogPrivacy = .auto) {
        text += privacy.apply(to: value() ? "true" : "false", isScalar: true)
    }

    public mutating func appendInterpolation(_ value: @autoclosure () -> any Error, privacy: OSLogPrivacy = .auto) {
        text += privacy.apply(to: String(describing: value()), isScalar: false)
    }

    public mutating func appendInterpolation(_ value: Any.Type, privacy: OSLogPrivacy = .auto) {
        text += privacy.apply(to: String(reflecting: value), isScalar: false)
    }
}
