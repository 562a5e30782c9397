import Foundation

/// What a device build is checked against: the iOS release of the target device and today's date.
public struct DeviceBuildOptions: Sendable, Hashable {
    /// A current iOS release, the default target (`--ios`).
    public static let currentIOSRelease = [26, 1]

    /// The target device's iOS version as components (`[26, 1]`); a `MinimumOSVersion` above it fails.
    public var targetIOSVersion: [Int]
    /// The moment provisioning profile expiry is judged at.
    public var now: Date

    /// Creates options.
    /// - Parameters:
    ///   - targetIOSVersion: The target device's iOS version; a current release by default.
    ///   - now: When profile expiry is judged; the current time by default.
    public init(targetIOSVersion: [Int] = DeviceBuildOptions.currentIOSRelease, now: Date = Date()) {
        self.targetIOSVersion = targetIOSVersion
        self.now = now
    }

    /// Reads a version as people write it ("17", "17.4", "17.4.1"), nil when it is not one.
    public static func versionComponents(_ text: String) -> [Int]? {
        let parts = text.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count) else { return nil }
        let numbers = parts.map { part in part.allSatisfy(\.isASCII) ? Int(part) : nil }
        guard numbers.allSatisfy({ $0 != nil && $0! >= 0 }) else { return nil }
        return numbers.map { $0! }
    }

    /// Orders two versions, missing components counting as 0 (`14` == `14.0.0`).
    static func compare(_ left: [Int], _ right: [Int]) -> ComparisonResult {
        let length = max(left.count, right.count)
        for index in 0..<length {
            let (a, b) = (index < left.count ? left[index] : 0, index < right.count ? right[index] : 0)
            if a != b { return a < b ? .orderedAscending : .orderedDescending }
        }
        return .orderedSame
    }

    /// ``targetIOSVersion`` as people write it ("26.1").
    var targetIOSVersionString: String { targetIOSVersion.map(String.init).joined(separator: ".") }
}
