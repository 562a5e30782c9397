import Foundation
import WalletExtensionRuntime

/// Logs a printf-style message (`os_log`), with the device's privacy rules: `%@` and `%s`
/// arguments are `<private>` unless written `%{public}@`; numbers are shown unless written
/// `%{private}d`.
public func os_log(_ message: StaticString, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default,
                   type: OSLogType = .default, _ args: any CVarArg...) {
    guard log.isEnabled else { return }
    ExtensionLog.send(level: type.name, message: log.prefix + OSLogFormat.render("\(message)", args))
}

/// Logs an interpolated message (`os_log(_:dso:log:_:)`, iOS 14).
public func os_log(_ type: OSLogType, dso: UnsafeRawPointer? = #dsohandle, log: OSLog = .default, _ message: OSLogMessage) {
    Logger(log).log(level: type, message)
}

/// The printf subset of `os_log` formats.
enum OSLogFormat {
    /// `format` with each conversion replaced by its argument, privacy applied.
    static func render(_ format: String, _ args: [any CVarArg]) -> String {
        var output = ""
        var remaining = Substring(format)
        var next = 0
        while let percent = remaining.firstIndex(of: "%") {
            output += remaining[..<percent]
            var cursor = remaining.index(after: percent)
            guard cursor < remaining.endIndex else { output += "%"; remaining = ""; break }
            if remaining[cursor] == "%" {
                output += "%"
                remaining = remaining[remaining.index(after: cursor)...]
                continue
            }
            var privacy: OSLogPrivacy?
            if remaining[cursor] == "{", let close = remaining[cursor...].firstIndex(of: "}") {
                let annotations = remaining[remaining.index(after: cursor)..<close].split(separator: ",")
                    .map { $0.trimmingCharacters(in: .whitespaces) }
                if annotations.contains("public") { privacy = .public }
                if annotations.contains("private") { privacy = .private }
                if annotations.contains("sensitive") { privacy = .sensitive }
                cursor = remaining.index(after: close)
            }
            // Flags, width, precision and length modifiers, then the conversion character.
            var spec = "%"
            while cursor < remaining.endIndex, "-+ #0123456789.hlqLzjt".contains(remaining[cursor]) {
                spec.append(remaining[cursor])
                cursor = remaining.index(after: cursor)
            }
            guard cursor < remaining.endIndex else { output += spec; remaining = ""; break }
            let conversion = remaining[cursor]
            remaining = remaining[remaining.index(after: cursor)...]
            guard next < args.count else { output += "<missing>"; continue }
            let argument = args[next]
            next += 1
            let isScalar = !"@s".contains(conversion)
            let text: String
            if isScalar, "diouxXcfFeEgGaA".contains(conversion) {
                text = String(format: spec + String(conversion), argument)
            } else {
                text = String(describing: argument)
            }
            output += (privacy ?? .auto).apply(to: text, isScalar: isScalar)
        }
        return output + remaining
    }
}
