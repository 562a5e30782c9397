import FoundationEssentials
import Synchronization
import WalletWire
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where each App Group's shared container is, as the host says.
///
/// An extension learns its containers from `initialize` (`appGroups`); a containing app
/// launched by the host, or an extension before `initialize`, from the environment variable
/// `WALLET_EXTENSION_APP_GROUPS` (a JSON object, group identifier -> directory). When both
/// exist, `initialize` wins.
package enum AppGroupContainers {
    private static let fromHost = Mutex<[String: String]?>(nil)

    private static let fromEnvironment: [String: String] = {
        guard let raw = getenv(WireEnvironment.appGroups) else { return [:] }
        do {
            return try JSONDecoder().decode([String: String].self, from: Data(String(cString: raw).utf8))
        } catch {
            Diagnostics.log("\(WireEnvironment.appGroups) is not a JSON object of strings: \(error)")
            return [:]
        }
    }()

    /// Records the containers from `initialize`.
    package static func useContainersFromHost(_ containers: [String: String]) {
        fromHost.withLock { $0 = containers }
    }

    /// The App Groups the host gave this process a container for.
    package static var groupIdentifiers: [String] {
        if let containers = fromHost.withLock({ $0 }) {
            return containers.keys.sorted()
        }
        return fromEnvironment.keys.sorted()
    }

    /// The container directory of `groupIdentifier`, if the host gave one.
    package static func path(for groupIdentifier: String) -> String? {
        if let containers = fromHost.withLock({ $0 }) {
            return containers[groupIdentifier]
        }
        return fromEnvironment[groupIdentifier]
    }
}

extension FileManager {
    /// The shared container of an App Group the extension (or containing app) belongs to,
    /// as on iOS.
    ///
    /// The host assigns one directory per group and passes it in `initialize` (or, for a
    /// containing app, in `WALLET_EXTENSION_APP_GROUPS`); the directory is created if needed.
    /// - Parameter groupIdentifier: The App Group identifier, e.g. `group.com.example.issuer`.
    /// - Returns: The container directory, or `nil` when the process is not a member of the
    ///   group (the host gave no container for it).
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        guard let path = AppGroupContainers.path(for: groupIdentifier) else { return nil }
        try? createDirectory(atPath: path, withIntermediateDirectories: true)
        return URL(filePath: path, directoryHint: .isDirectory)
    }
}
