import Foundation

/// Numbers for people, in every message the host prints: `0.9 ms`, `34.2 ms`, `152 ms`,
/// `1.5 s`; `9.6 MB`.
public enum HumanReadable {
    /// Milliseconds for people: one decimal under 100 ms, whole milliseconds up to a second, then seconds.
    public static func milliseconds(_ value: Double) -> String {
        if value >= 1000 {
            let seconds = value / 1000
            return seconds == seconds.rounded() ? "\(Int(seconds)) s" : String(format: "%.1f s", seconds)
        }
        return value >= 100 ? "\(Int(value.rounded())) ms" : String(format: "%.1f ms", value)
    }

    /// A duration as ``milliseconds(_:)`` writes it: `100 ms`, `20 s`.
    public static func duration(_ duration: Duration) -> String {
        milliseconds(duration.milliseconds)
    }

    /// Mebibytes, as the kernel's messages call them MB: `9.6 MB`, `55 MB`.
    public static func megabytes(_ bytes: Int) -> String {
        bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MB" : String(format: "%.1f MB", Double(bytes) / 1_048_576)
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
