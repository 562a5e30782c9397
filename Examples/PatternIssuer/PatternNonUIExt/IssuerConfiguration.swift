import Foundation

/// The issuer's own namespace, named as issuers name it. It shares its name with the SDK's entry
/// point, so main.swift calls that one by its qualified name, `WalletExtensionKit.WalletExtension`.
enum WalletExtension {
    /// Where the backend is: the `IssuerBackendURL` key of the extension's Info.plist.
    static var backendURL: URL? {
        (Bundle.main.object(forInfoDictionaryKey: "IssuerBackendURL") as? String).flatMap(URL.init(string:))
    }
}
