import Foundation

extension NewPackageTemplate {
    /// The containing app's stand-in: what the real app stores in the App Group after sign-in.
    var appMain: String {
        """
        // Stands in for \(names.name)'s containing app, which cannot run here. `wallet-host app open \(names.appBundle)`
        // runs it, as opening the app after signing in would: it writes the user's cards into the App Group's
        // defaults, which the extensions read. The keychain item the app would keep is in
        // Bundles/\(names.appBundle)/seed/keychain.json: `app open` adds it.
        import Foundation

        /// The user's cards, as the bank's server lists them at sign-in (test numbers: the server makes them up).
        let cards = [
            Card(identifier: "\(names.name.uppercased())-VISA-4242", title: "\(names.name) Visa", suffix: "4242",
                 cardholder: "Jane Appleseed", network: "Visa"),
            Card(identifier: "\(names.name.uppercased())-MC-5454", title: "\(names.name) Mastercard", suffix: "5454",
                 cardholder: "Jane Appleseed", network: "MasterCard"),
        ]

        guard ProcessInfo.processInfo.environment["WALLET_EXTENSION_APP_GROUPS"] != nil, let defaults = UserDefaults(suiteName: appGroup) else {
            print("\(names.appTarget): run it with wallet-host app open \(names.appBundle), which gives it its App Group")
            exit(2)
        }
        defaults.set(try JSONEncoder().encode(cards), forKey: SharedDefaultsKey.cards)
        defaults.set(\(names.hasUserInterface), forKey: SharedDefaultsKey.requiresAuthentication)
        guard defaults.synchronize() else {
            print("\(names.appTarget): could not write the App Group's defaults")
            exit(1)
        }
        print("\(names.appTarget): signed in as Jane Appleseed; wrote \\(cards.count) cards into \\(appGroup)")

        """
    }

    /// `seed/keychain.json`: the generic password the app keeps after sign-in (added by `app open`).
    var keychainSeed: String {
        """
        {"items": [{"service": "\(names.bundleIdentifier).session", "account": "demo", "secret": "development-session-token"}]}

        """
    }

    /// A user agent script that signs in with the test account.
    var signInScript: String {
        names.hasUserInterface
            ? """
            {"issuer": "\(names.bundleIdentifier)",
             "answers": [{"action": "Sign In", "values": {"username": "demo", "password": "demo"}}]}

            """
            : """
            {"issuer": "\(names.bundleIdentifier)"}

            """
    }
}
