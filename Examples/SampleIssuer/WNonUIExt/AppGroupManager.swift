import FoundationEssentials
import WalletExtensionKit

/// The App Group's shared container (`FileManager.containerURL(forSecurityApplicationGroupIdentifier:)`).
var appGroupSharedContainerDirectory: URL? {
    FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroupID)
}

/// The App Group's shared defaults, or nil (with a line in the log) when the host gave this
/// extension no container for the group. On iOS this is `UserDefaults(suiteName: appGroupID)`.
var appGroupSharedDefaults: SharedDefaults? {
    guard let defaults = SharedDefaults(suiteName: appGroupID) else {
        print("WNonUIExt: no container for \(appGroupID); is the extension a member of the App Group?")
        return nil
    }
    return defaults
}

/// The cards the user has, as the containing app cached them at login; empty (with a line
/// in the log) before the first login.
func cachedProvisioningCredentials() -> [String: ProvisioningCredential] {
    guard let data = appGroupSharedDefaults?.data(forKey: SharedDefaultsKey.paymentPassCredentials) else {
        print("WNonUIExt: no \(SharedDefaultsKey.paymentPassCredentials) in the App Group; has the user logged in to the app?")
        return [:]
    }
    do {
        return try JSONDecoder().decode([String: ProvisioningCredential].self, from: data)
    } catch {
        print("WNonUIExt: \(SharedDefaultsKey.paymentPassCredentials) could not be decoded: \(error)")
        return [:]
    }
}
