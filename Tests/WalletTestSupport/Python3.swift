import Foundation

/// The `python3` the Python examples and the PROTOCOL.md handler run with: the first on `PATH`,
/// as `#!/usr/bin/env python3` finds it.
public enum Python3 {
    /// Its path, or nil when there is no python3 on `PATH` (the Python tests are then skipped).
    public static let path: String? = {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":")
            .map { "\($0)/python3" }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
    }()

    /// Whether there is one.
    public static var isAvailable: Bool { path != nil }
}
