import Foundation

/// `DIR/seed`: what the containing app stores after its login, which its stand-in writes when
/// `wallet-host app open` runs it. `import` writes a commented example the first time and never
/// overwrites what the user wrote.
public struct SeedFolder {
    public static let keychainFile = "keychain.json"
    /// The example of ``keychainFile``, written beside it (JSON has no comments).
    public static let keychainExampleFile = "keychain.example.json"

    public let url: URL

    public init(directory: URL) {
        url = directory.appendingPathComponent("seed")
    }

    /// Writes `GROUP.plist` for each group and the keychain example, where they do not exist yet.
    /// - Returns: The files written.
    public func writeExamples(appName: String, groups: [String]) throws -> [URL] {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var written: [URL] = []
        for group in groups {
            let file = url.appendingPathComponent("\(group).plist")
            guard !FileManager.default.fileExists(atPath: file.path) else { continue }
            try Data(defaultsExample(appName: appName, group: group).utf8).write(to: file)
            written.append(file)
        }
        let keychain = url.appendingPathComponent(Self.keychainExampleFile)
        if !FileManager.default.fileExists(atPath: keychain.path) {
            try Data(keychainExample(appName: appName).utf8).write(to: keychain)
            written.append(keychain)
        }
        return written
    }

    func defaultsExample(appName: String, group: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <!--
          What \(appName) stores in the App Group \(group) after the user logs in. The app cannot run
          here; its stand-in writes every key below into UserDefaults(suiteName: "\(group)") when
          `wallet-host app open \(appName)` runs it. Edit it, run `wallet-host import` again (which
          copies it into the app bundle and never overwrites this file), then open the app.
        -->
        <plist version="1.0">
        <dict>
        \t<!-- For example:
        \t<key>ShouldRequireAuthenticationForAppleWallet</key>
        \t<true/>
        \t-->
        </dict>
        </plist>

        """
    }

    func keychainExample(appName: String) -> String {
        """
        {
          "comment": "Rename this file keychain.json to have `wallet-host app open \(appName)` add these generic passwords to the simulated keychain, as \(appName) would after its login (in its default access group unless accessGroup is given). Run `wallet-host import` again after editing it.",
          "items": [
            {"service": "com.example.issuer.session", "account": "user", "secret": "example-token", "accessGroup": null, "label": null}
          ]
        }

        """
    }
}
