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
    /// - Parameters:
    ///   - appName: The app target's name, for the text.
    ///   - bundleName: The app bundle's name (`FULL_PRODUCT_NAME`), which `wallet-host app open` finds it by.
    /// - Returns: The files written.
    public func writeExamples(appName: String, bundleName: String, groups: [String]) throws -> [URL] {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        var written: [URL] = []
        for group in groups {
            let file = url.appendingPathComponent("\(group).plist")
            guard !FileManager.default.fileExists(atPath: file.path) else { continue }
            try Data(defaultsExample(appName: appName, bundleName: bundleName, group: group).utf8).write(to: file)
            written.append(file)
        }
        let keychain = url.appendingPathComponent(Self.keychainExampleFile)
        if !FileManager.default.fileExists(atPath: keychain.path) {
            try Data(keychainExample(appName: appName, bundleName: bundleName).utf8).write(to: keychain)
            written.append(keychain)
        }
        return written
    }

    func defaultsExample(appName: String, bundleName: String, group: String) -> String {
        // An XML comment may not hold "--".
        func text(_ value: String) -> String {
            value.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
                .replacingOccurrences(of: "--", with: "- -")
        }
        let app = text(appName), groupName = text(group), command = text(Self.openCommand(bundleName: bundleName))
        return """
        <?xml version="1.0" encoding="UTF-8"?>
        <!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">
        <!--
          What \(app) stores in the App Group \(groupName) after the user logs in. The app cannot run
          here; its stand-in writes every key below into UserDefaults(suiteName: "\(groupName)") when
          `\(command)` runs it. Edit it, run `wallet-host import` again (which
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

    func keychainExample(appName: String, bundleName: String) -> String {
        let comment = "Rename this file keychain.json to have `\(Self.openCommand(bundleName: bundleName))` add these generic passwords to the "
            + "simulated keychain, as \(appName) would after its login (in its default access group unless accessGroup is given; "
            + "a group the app may not use is refused). Run `wallet-host import` again after editing it."
        let quotedComment = (try? JSONSerialization.data(withJSONObject: [comment], options: [.withoutEscapingSlashes]))
            .map { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) } ?? "\"\""
        return """
        {
          "comment": \(quotedComment),
          "items": [
            {"service": "com.example.issuer.session", "account": "user", "secret": "example-token", "accessGroup": null, "label": null}
          ]
        }

        """
    }

    /// `wallet-host app open BUNDLE [--apps APPS]`, quoted for a shell: `app open` finds an app by
    /// its bundle identifier or bundle name, not by its Xcode target's name.
    public static func openCommand(bundleName: String, apps: String? = nil) -> String {
        "wallet-host app open \(shellQuoted(bundleName))" + (apps.map { " --apps \(shellQuoted($0))" } ?? "")
    }

    /// `word` as one shell word: as it is when it holds only characters a shell leaves alone, else in single quotes.
    public static func shellQuoted(_ word: String) -> String {
        let plain = !word.isEmpty && word.unicodeScalars.allSatisfy {
            ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || "@%+=:,./_-".unicodeScalars.contains($0)
        }
        return plain ? word : "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
