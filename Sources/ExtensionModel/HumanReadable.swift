import Foundation

/// Numbers for people, in every message the host prints: `0.9 ms`, `34.2 ms`, `152 ms`,
/// `1.5 s`; `9.6 MB`.
public enum HumanReadable {
    /// Milliseconds for people: one decimal under 100 ms, whole milliseconds up to a second, then seconds.
    public static func milliseconds(_ value: Double) -> String {
        if value >= 1000 {
            let seconds = value / 1000
            return seconds == seconds.rounded() ? "\(Int(seconds)) s" : oneDecimal(seconds) + " s"
        }
        return value >= 100 ? "\(Int(value.rounded())) ms" : oneDecimal(value) + " ms"
    }

    /// `value` with one decimal, as `%.1f` writes it, without `String(format:)` (Foundation's
    /// formatter costs more than the rest of an event: two events per call use this).
    static func oneDecimal(_ value: Double) -> String {
        #if arch(x86_64)
        // Ten times a double is exact in 80 bits (53 + 4 bits of mantissa), so rounding it to the
        // nearest integer, ties to even, rounds the double's exact value as printf does.
        guard value.isFinite, abs(value) < 1e15 else { return String(format: "%.1f", value) }
        let tenths = Int((Float80(abs(value)) * 10).rounded(.toNearestOrEven))
        return (value < 0 && tenths > 0 ? "-" : "") + "\(tenths / 10).\(tenths % 10)"
        #else
        return String(format: "%.1f", value)
        #endif
    }

    /// A duration as ``milliseconds(_:)`` writes it: `100 ms`, `20 s`.
    public static func duration(_ duration: Duration) -> String {
        milliseconds(duration.milliseconds)
    }

    /// Mebibytes, as the kernel's messages call them MB: `9.6 MB`, `55 MB`.
    public static func megabytes(_ bytes: Int) -> String {
        bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MB" : oneDecimal(Double(bytes) / 1_048_576) + " MB"
    }

    /// `1 call`, `2 calls`.
    public static func counted(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// `a`, `a and b`, `a, b and c`.
    public static func list(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }
}

extension Duration {
    /// The duration in milliseconds, fractions included.
    public var milliseconds: Double {
        Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15
    }
}
