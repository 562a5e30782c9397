import Foundation
import XcodeImport

/// `wallet-host new NAME`: a package from which `bundle`, `app open`, `conform` and `add-card` get a
/// card into the simulated Wallet, as generated (``NewPackageTemplate``).
struct NewCommand {
    let names: NewPackageNames
    let output: URL
    let sdk: URL

    static let spec = CommandSpec(
        "new",
        arguments: [.init(name: "NAME", help: "The issuer's name: the package's, the app's (NAME.app) and the start of every target's.")],
        summary: """
            Make a Swift package for a new issuer: a non-UI extension that asks the development backend (provisioning \
            backend) for its add requests, a UI extension whose sign-in takes demo/demo, a stand-in containing app, \
            their Info.plists and entitlements in Bundles/, unit tests and a README with the commands to a card added.
            """,
        options: [
            .valued("out", "DIR", help: "Where the package goes (default: ./NAME); it must not exist or be empty."),
            .valued("ui", "swiftui|uikit|none", help: "The UI extension's sign-in: UIKit (the default), SwiftUI, or no UI extension."),
            .valued("backend-port", "PORT", help: """
                The port of wallet-host provisioning backend that the non-UI extension asks (default 8443).
                """),
            .valued("sdk", "CHECKOUT", help: """
                The wallet-host checkout the package depends on by path (default: the checkout this wallet-host was built from).
                """),
        ])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.count == 1, let name = parsed.positionals.first else { throw UsageError("new needs one NAME") }
        let userInterface = try parsed.value("ui").map { value throws(UsageError) in
            guard let choice = NewPackageNames.UserInterface(rawValue: value) else {
                throw UsageError("--ui \(value): one of swiftui, uikit, none")
            }
            return choice
        } ?? .uikit
        var port = 8443
        if let value = parsed.value("backend-port") {
            guard let number = Int(value), (1...65535).contains(number) else { throw UsageError("--backend-port \(value): a port, 1 to 65535") }
            port = number
        }
        names = try NewPackageNames(name: name, userInterface: userInterface, backendPort: port)
        output = URL(fileURLWithPath: parsed.value("out") ?? name).standardizedFileURL
        sdk = parsed.value("sdk").map { URL(fileURLWithPath: $0).standardizedFileURL } ?? ImportCommand.defaultSDK
    }

    func run() throws -> Int32 {
        guard FileManager.default.fileExists(atPath: sdk.appendingPathComponent("Package.swift").path) else {
            throw CommandFailure("the SDK checkout \(sdk.path) has no Package.swift (this wallet-host was built elsewhere or the checkout "
                + "moved); pass --sdk with the path of a wallet-host checkout")
        }
        let template = NewPackageTemplate(names: names, sdk: sdk)
        try template.write(to: output)
        print("Made the package \(names.name) in \(output.path) (the SDK from \(sdk.path)):")
        for (path, _) in template.files { print("  \(path)") }
        let directory = SeedFolder.shellQuoted(output.path)
        print("next: cd \(directory) && wallet-host bundle   (then README.md, \"From here to a card in Wallet\")")
        return 0
    }
}
