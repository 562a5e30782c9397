// AppGroupManager.swift: the App Group the containing app writes the user's cards into, as
// the Wallet Extensions guide sets it up for iOS.

import Foundation

/// The App Group's shared container.
let appGroupSharedContainerDirectory: URL? =
    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupID)

/// The App Group's shared defaults, which the containing app writes at login.
let appGroupSharedDefaults: UserDefaults = UserDefaults(suiteName: appGroupID)!
