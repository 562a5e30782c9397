import Foundation

/// The names `wallet-host new NAME` derives from NAME: targets, bundles, identifiers, the App Group.
struct NewPackageNames: Sendable {
    /// Which UI extension the package gets (`--ui`).
    enum UserInterface: String, Sendable, CaseIterable {
        case uikit, swiftui, none
    }

    /// NAME: the package, the app bundle (`NAME.app`) and the prefix of every target.
    let name: String
    let userInterface: UserInterface
    /// The port of `wallet-host provisioning backend` the non-UI extension asks (`--backend-port`).
    let backendPort: Int

    /// - Throws: ``UsageError`` when NAME is not a letter followed by letters and digits (it starts Swift module names).
    init(name: String, userInterface: UserInterface, backendPort: Int) throws(UsageError) {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              name.unicodeScalars.allSatisfy({ $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0)) }), name.count <= 40 else {
            throw UsageError("new: NAME \"\(name)\" must be a letter followed by letters and digits (at most 40): it starts every target's name")
        }
        self.name = name
        self.userInterface = userInterface
        self.backendPort = backendPort
    }

    var cardsTarget: String { name + "Cards" }
    var signInTarget: String { name + "SignIn" }
    var appTarget: String { name + "App" }
    var testTarget: String { name + "CardsTests" }
    var cardsHandler: String { name + "CardsHandler" }
    var signInController: String { name + "SignInViewController" }
    var appBundle: String { name + ".app" }
    var bundleIdentifier: String { "com.example." + name.lowercased() }
    var appGroup: String { "group." + bundleIdentifier }
    var backendURL: String { "http://127.0.0.1:\(backendPort)" }
    var hasUserInterface: Bool { userInterface != .none }
}
