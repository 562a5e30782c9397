import Foundation

/// Where Foundation's `UserDefaults(suiteName: group)` finds an App Group's defaults: at
/// `<container>/Library/Preferences/<group>.plist`, the file iOS uses, shared by the
/// containing app and its extensions.
///
/// swift-corelibs-foundation keeps suite `S` at `$XDG_CONFIG_HOME/S.plist` and follows
/// symbolic links when it reads and writes it. So a process gets `XDG_CONFIG_HOME` set to
/// the first group's `Library/Preferences` directory, and that directory gets a link
/// `<other group>.plist` to each other group's file. `UserDefaults.standard` lands in the
/// same directory, as `<bundle identifier>.plist`.
public enum AppGroupPreferences {
    /// The environment variable Foundation reads.
    public static let configurationHomeVariable = "XDG_CONFIG_HOME"

    /// The directory to put in `XDG_CONFIG_HOME`, or nil when there is no App Group. Touches no file.
    /// - Parameter appGroups: Group identifier -> container directory.
    public static func home(appGroups: [String: String]) -> String? {
        appGroups.min { $0.key < $1.key }.map { preferencesDirectory(ofContainer: $0.value) }
    }

    /// Creates each container's `Library/Preferences` and the links in ``home(appGroups:)``,
    /// before each launch, following no link in any container (see ``ContainerDirectory``).
    ///
    /// A name in the home directory already taken by a file leaves that group's defaults
    /// unreachable, which the process sees as empty defaults, as on a device whose App Group
    /// entitlement is wrong.
    /// - Throws: ``ContainerDirectory/Refusal`` naming a link planted where a directory belongs.
    public static func prepare(appGroups: [String: String]) throws(ContainerDirectory.Refusal) {
        let groups = appGroups.sorted { $0.key < $1.key }
        guard let (_, firstContainer) = groups.first else { return }
        for (_, container) in groups {
            try ContainerDirectory.ensure(container, preferencesComponents)
        }
        for (group, container) in groups where container != firstContainer {
            let target = (preferencesDirectory(ofContainer: container) as NSString).appendingPathComponent("\(group).plist")
            try ContainerDirectory.link("\(group).plist", to: target, in: firstContainer, preferencesComponents)
        }
    }

    private static let preferencesComponents = ["Library", "Preferences"]

    private static func preferencesDirectory(ofContainer container: String) -> String {
        (container as NSString).appendingPathComponent("Library/Preferences")
    }
}
