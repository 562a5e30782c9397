import Foundation

extension NewPackageTemplate {
    /// `Package.swift`: the SDK by path (no package from the network), each target with only what it needs.
    var manifest: String {
        let sdkPackage = sdk.standardizedFileURL.lastPathComponent
        let swiftUI = names.userInterface == .swiftui ? ", .product(name: \"SwiftUI\", package: \(literal(sdkPackage)))" : ""
        let signIn = names.hasUserInterface ? """

                    // The UI extension: the sign-in Wallet shows when status asks for authentication.
                    .executableTarget(name: \(literal(names.signInTarget)), dependencies: [kit\(swiftUI)]),
            """ : ""
        return """
            // swift-tools-version:6.0
            // Made by `wallet-host new \(names.name)`. `wallet-host bundle` builds it and assembles apps/\(names.appBundle) from
            // Bundles/ (README.md).
            import PackageDescription

            /// URLSession is in FoundationNetworking on Linux: this makes every file of a target see it, as on iOS.
            let seeNetworking = SwiftSetting.unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "FoundationNetworking"])
            /// The SDK: PassKit, UIKit, os, WatchConnectivity, ... named as Apple's frameworks.
            let kit = Target.Dependency.product(name: "WalletExtensionKit", package: \(literal(sdkPackage)))

            let package = Package(
                name: \(literal(names.name)),
                dependencies: [.package(path: \(literal(sdk.standardizedFileURL.path)))],
                targets: [
                    // The non-UI extension: Wallet asks it whether there are cards to add, for the cards, and for each card's
                    // add request, which the bank's server encrypts.
                    .executableTarget(name: \(literal(names.cardsTarget)), dependencies: [kit], swiftSettings: [seeNetworking]),\(signIn)
                    // Stands in for the containing app, which cannot run here: it writes what the app stores after sign-in.
                    .executableTarget(name: \(literal(names.appTarget))),
                    .testTarget(name: \(literal(names.testTarget)), dependencies: [\(literal(names.cardsTarget)), kit], swiftSettings: [seeNetworking]),
                ]
            )

            """
    }

    var gitignore: String {
        """
        .build/
        apps/

        """
    }

    /// The App Group, its keys and the card as the app and the extension both store it: one file, linked into both targets' folders.
    var sharedCard: String {
        """
        import Foundation

        /// The App Group the app and its extensions share (the entitlements in Bundles/ name it).
        let appGroup = \(literal(names.appGroup))

        /// Keys of the App Group's defaults, which the app writes after the user signs in.
        enum SharedDefaultsKey {
            /// JSON of `[Card]`.
            static let cards = "Cards"
            /// Bool: Wallet shows the UI extension's sign-in before it lists the cards.
            static let requiresAuthentication = "RequiresAuthentication"
        }

        /// One of the user's cards as the app knows it: no card number, which only the bank's server holds.
        struct Card: Codable, Equatable, Sendable {
            /// The card's primary account identifier, also its pass entry's identifier.
            var identifier: String
            var title: String
            /// The last four digits of the number.
            var suffix: String
            var cardholder: String
            /// A `PKPaymentNetwork` raw value: "Visa", "MasterCard".
            var network: String
        }

        """
    }
}
