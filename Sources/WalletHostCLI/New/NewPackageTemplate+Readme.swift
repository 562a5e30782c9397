import Foundation

extension NewPackageTemplate {
    /// The commands from the package to a card added, in order; the README shows them and the test runs them.
    var commands: [String] {
        let allow = "--allow-network 127.0.0.1:\(names.backendPort)"
        let appexes = ["PlugIns/\(names.cardsTarget).appex"] + (names.hasUserInterface ? ["PlugIns/\(names.signInTarget).appex"] : [])
        return [
            "export WALLET_HOST_APPS=\"$PWD/apps\" WALLET_HOST_STATE=\"$PWD/.state\"",
            "wallet-host provisioning backend --port \(names.backendPort) &",
            "wallet-host serve --watch . --keep-warm \(allow) &",
            "wallet-host bundle",
            "wallet-host app open apps/\(names.appBundle)",
            "wallet-host conform " + appexes.map { "apps/\(names.appBundle)/\($0)" }.joined(separator: " ") + " \(allow)",
            "wallet-host add-card --user-agent sign-in.json \(allow)",
        ]
    }

    var readme: String {
        let signIn = names.hasUserInterface
            ? "- `Sources/\(names.signInTarget)`: the UI extension (\(names.userInterface == .swiftui ? "SwiftUI" : "UIKit")), the sign-in "
                + "Wallet shows first.\n  It accepts the test user `demo` with password `demo` (fields `username` and `password`, "
                + "button `Sign In`).\n"
            : ""
        return """
            # \(names.name)

            An Apple Wallet issuer: a containing app with the two extensions Wallet runs to add its cards, made by
            `wallet-host new \(names.name)` to run on [wallet-host](\(sdk.standardizedFileURL.path)).

            - `Sources/\(names.cardsTarget)`: the non-UI extension. Wallet asks it whether there are cards to add (status),
              for the cards (pass entries, and remote pass entries for a paired Apple Watch) and for the chosen card's
              encrypted add request.
            \(signIn)- `Sources/\(names.appTarget)`: stands in for the containing app, which cannot run here: opening it "signs in" and writes
              the user's cards into the App Group (`Shared/Card.swift`, in both targets). `Bundles/\(names.appBundle)/seed/keychain.json`
              is the keychain item the app keeps.
            - `Bundles/`: each bundle's Info.plist (extension point, principal class), entitlements and resources, laid
              out as the bundles are: `wallet-host bundle` builds the package and assembles `apps/\(names.appBundle)` from them.
            - `Tests/\(names.testTarget)`: unit tests of the non-UI extension (`swift test`).

            ## The bank's server

            Only the bank's server knows the card numbers and can encrypt a card for the device's certificate. While you
            develop, `wallet-host provisioning backend` stands in for the bank's server: it makes up a test card ending with
            the entry's last four digits and encrypts it as Apple's ECC_V2 scheme says. The extension asks it at
            `DevelopmentBackendURL` (\(names.backendURL), in `Bundles/\(names.appBundle)/PlugIns/\(names.cardsTarget).appex/Info.plist`);
            point that at your server's test environment when you have one. The extension runs sandboxed, so it reaches
            the backend only through the host's proxy, with `--allow-network`.

            ## From here to a card in Wallet

            In this folder:

            ```sh
            \(commands.joined(separator: "\n"))
            ```

            The `export` keeps the simulated iPhone in `.state/`. `serve` is the host's daemon: it keeps the non-UI
            extension warm, as iOS does once Wallet has asked it, and `--watch .` rebuilds and reloads the extensions
            whenever you save a file (a build error is printed and the last good build keeps answering). The commands after
            it go through it: `bundle` builds the extensions and assembles `apps/`; `app open` signs in; `conform` runs the
            conformance checks on each extension; `add-card` runs Wallet's flow with the user of `sign-in.json`, who signs in
            as `demo`. Leave out `--user-agent` to answer at the terminal. `kill %1 %2` stops the backend and the daemon.

            """
    }
}
