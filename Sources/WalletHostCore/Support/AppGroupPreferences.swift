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

    /// Creates each container's `Library/Preferences` and the links, and returns the
    /// directory to put in `XDG_CONFIG_HOME`, or nil when there is no App Group.
    ///
    /// Best effort: a directory that cannot be created or a name already taken by a file
    /// leaves that group's defaults unreachable, which the extension sees as empty defaults,
    /// as on a device whose App Group entitlement is wrong.
    /// - Parameter appGroups: Group identifier -> container directory.
    public static func prepare(appGroups: [String: String]) -> String? {
        let groups = appGroups.sorted { $0.key < $1.key }
        guard let (_, firstContainer) = groups.first else { return nil }
        let home = preferencesDirectory(ofContainer: firstContainer)
        let fileManager = FileManager.default
        for (group, container) in groups {
            let directory = preferencesDirectory(ofContainer: container)
            try? fileManager.createDirectory(atPath: directory, withIntermediateDirectories: true)
            guard directory != home else { continue }
            let link = (home as NSString).appendingPathComponent("\(group).plist")
            let target = (directory as NSString).appendingPathComponent("\(group).plist")
            if (try? fileManager.destinationOfSymbolicLink(atPath: link)) == target { continue }
            guard (try? fileManager.attributesOfItem(atPath: link)) == nil else { continue }
            try? fileManager.createSymbolicLink(atPath: link, withDestinationPath: target)
        }
        return home
    }

    private static func preferencesDirectory(ofContainer container: String) -> String {
        (container as NSString).appendingPathComponent("Library/Preferences")
    }
}
