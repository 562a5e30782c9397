import Foundation
import WalletExtensionRuntime

/// Keeps a warm extension's view of its App Group defaults current.
///
/// Foundation on Linux caches a suite's values in the process and rereads the file only when
/// `synchronize()` is called (on iOS, cfprefsd shares every write at once). The runtime
/// calls ``refresh()`` before each call, so an extension kept running sees what the app wrote
/// since, as on a device. It costs well under a microsecond when nothing changed.
enum AppGroupDefaults {
    static func refresh() {
        for group in AppGroupContainers.groupIdentifiers {
            _ = UserDefaults(suiteName: group)?.synchronize()
        }
    }
}
