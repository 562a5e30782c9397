import Foundation

extension NewPackageTemplate {
    /// The app's Info.plist. `WalletHostImportStandIn` tells the host that its executable is a
    /// stand-in, whose `seed/keychain.json` `app open` adds to the keychain.
    var appInfoPlist: String {
        plist("""
            \t<key>CFBundleDevelopmentRegion</key>
            \t<string>en</string>
            \t<key>CFBundleDisplayName</key>
            \t<string>\(names.name)</string>
            \t<key>CFBundleExecutable</key>
            \t<string>\(names.appTarget)</string>
            \t<key>CFBundleIdentifier</key>
            \t<string>\(names.bundleIdentifier)</string>
            \t<key>CFBundleInfoDictionaryVersion</key>
            \t<string>6.0</string>
            \t<key>CFBundleName</key>
            \t<string>\(names.name)</string>
            \t<key>CFBundlePackageType</key>
            \t<string>APPL</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.0</string>
            \t<key>CFBundleVersion</key>
            \t<string>1</string>
            \t<key>MinimumOSVersion</key>
            \t<string>14.0</string>
            \t<key>WalletHostImportStandIn</key>
            \t<true/>
            """)
    }

    /// An extension's Info.plist: the extension point and the principal class (`MODULE.CLASS`).
    func extensionInfoPlist(target: String, displayName: String, point: String, principalClass: String, extra: String = "") -> String {
        plist("""
            \t<key>CFBundleDevelopmentRegion</key>
            \t<string>en</string>
            \t<key>CFBundleDisplayName</key>
            \t<string>\(displayName)</string>
            \t<key>CFBundleExecutable</key>
            \t<string>\(target)</string>
            \t<key>CFBundleIdentifier</key>
            \t<string>\(names.bundleIdentifier).\(target)</string>
            \t<key>CFBundleInfoDictionaryVersion</key>
            \t<string>6.0</string>
            \t<key>CFBundleName</key>
            \t<string>\(target)</string>
            \t<key>CFBundlePackageType</key>
            \t<string>XPC!</string>
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.0</string>
            \t<key>CFBundleVersion</key>
            \t<string>1</string>
            \t<key>MinimumOSVersion</key>
            \t<string>14.0</string>\(extra)
            \t<key>NSExtension</key>
            \t<dict>
            \t\t<key>NSExtensionPointIdentifier</key>
            \t\t<string>\(point)</string>
            \t\t<key>NSExtensionPrincipalClass</key>
            \t\t<string>\(target).\(principalClass)</string>
            \t</dict>
            """)
    }

    var cardsInfoPlist: String {
        extensionInfoPlist(target: names.cardsTarget, displayName: "\(names.name) Cards", point: "com.apple.PassKit.issuer-provisioning",
                           principalClass: names.cardsHandler, extra: """

                               \t<key>DevelopmentBackendURL</key>
                               \t<string>\(names.backendURL)</string>
                               """)
    }

    var signInInfoPlist: String {
        extensionInfoPlist(target: names.signInTarget, displayName: "\(names.name) Sign In",
                           point: "com.apple.PassKit.issuer-provisioning.authorization", principalClass: names.signInController)
    }

    /// The entitlements every bundle has: in-app provisioning and the shared App Group.
    var entitlements: String {
        plist("""
            \t<key>com.apple.developer.payment-pass-provisioning</key>
            \t<true/>
            \t<key>com.apple.security.application-groups</key>
            \t<array>
            \t\t<string>\(names.appGroup)</string>
            \t</array>
            """)
    }

    private func plist(_ body: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <plist version="1.0">
        <dict>
        \(body)
        </dict>
        </plist>

        """
    }
}
