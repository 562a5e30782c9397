import Foundation

/// What `wallet-host new NAME` writes: a package with a non-UI extension, a UI extension (UIKit,
/// SwiftUI or none), a stand-in containing app, their bundles' manifests in `Bundles/`, unit
/// tests and a README. Each file's text is in a `NewPackageTemplate+*.swift` file.
struct NewPackageTemplate {
    let names: NewPackageNames
    /// The wallet-host checkout the package depends on by path.
    let sdk: URL

    /// A file to write: text, a copy of a file, or a symbolic link.
    enum Content {
        case text(String)
        case copy(URL)
        case link(String)
    }

    /// Every file, by its path in the package, in the order written.
    var files: [(path: String, content: Content)] {
        let cards = "Sources/\(names.cardsTarget)"
        let appBundle = "Bundles/\(names.appBundle)"
        let cardsBundle = "\(appBundle)/PlugIns/\(names.cardsTarget).appex"
        var files: [(String, Content)] = [
            ("Package.swift", .text(manifest)),
            ("README.md", .text(readme)),
            (".gitignore", .text(gitignore + ".state/\n")),
            ("sign-in.json", .text(signInScript)),
            ("Shared/Card.swift", .text(sharedCard)),
            ("\(cards)/main.swift", .text(cardsMain)),
            ("\(cards)/\(names.cardsHandler).swift", .text(cardsHandler)),
            ("\(cards)/\(names.cardsHandler)+Entries.swift", .text(cardsEntries)),
            ("\(cards)/BankServer.swift", .text(bankServer)),
            ("\(cards)/PairedWatch.swift", .text(pairedWatch)),
            ("\(cards)/Card.swift", .link("../../Shared/Card.swift")),
            ("Sources/\(names.appTarget)/main.swift", .text(appMain)),
            ("Sources/\(names.appTarget)/Card.swift", .link("../../Shared/Card.swift")),
            ("Tests/\(names.testTarget)/\(names.cardsHandler)Tests.swift", .text(cardsTests)),
            ("\(appBundle)/Info.plist", .text(appInfoPlist)),
            ("\(appBundle)/\(names.appTarget).entitlements", .text(entitlements)),
            ("\(appBundle)/seed/keychain.json", .text(keychainSeed)),
            ("\(cardsBundle)/Info.plist", .text(cardsInfoPlist)),
            ("\(cardsBundle)/\(names.cardsTarget).entitlements", .text(entitlements)),
            ("\(cardsBundle)/card.png", .copy(sdk.appendingPathComponent("Examples/SampleIssuer/Art/card-ocean.png"))),
        ]
        if names.hasUserInterface {
            let signIn = "Sources/\(names.signInTarget)"
            let signInBundle = "\(appBundle)/PlugIns/\(names.signInTarget).appex"
            files += [
                ("\(signIn)/main.swift", .text(signInMain)),
                ("\(signIn)/\(names.signInController).swift", .text(names.userInterface == .swiftui ? signInSwiftUI : signInUIKit)),
                ("\(signIn)/TestAccount.swift", .text(signInAccount)),
                ("\(signInBundle)/Info.plist", .text(signInInfoPlist)),
                ("\(signInBundle)/\(names.signInTarget).entitlements", .text(entitlements)),
            ]
        }
        return files
    }

    /// Writes every file below `directory`, which must not exist or be empty.
    /// - Throws: ``CommandFailure`` when `directory` holds anything, or a file cannot be written.
    func write(to directory: URL) throws {
        let fileManager = FileManager.default
        if let existing = try? fileManager.contentsOfDirectory(atPath: directory.path), !existing.isEmpty {
            throw CommandFailure("\(directory.path) is not empty (it holds \(existing.sorted().prefix(3).joined(separator: ", "))"
                + "\(existing.count > 3 ? ", ..." : "")); new writes only into a new or empty directory: choose another NAME or --out")
        }
        if fileManager.fileExists(atPath: directory.path), (try? fileManager.contentsOfDirectory(atPath: directory.path)) == nil {
            throw CommandFailure("\(directory.path) exists and is not a directory; choose another NAME or --out")
        }
        for (path, content) in files {
            let url = directory.appendingPathComponent(path)
            try fileManager.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            switch content {
            case .text(let text): try Data(text.utf8).write(to: url)
            case .copy(let source):
                guard fileManager.fileExists(atPath: source.path) else {
                    throw CommandFailure("\(source.path) does not exist: --sdk must name a wallet-host checkout (the card art comes from it)")
                }
                try fileManager.copyItem(at: source, to: url)
            case .link(let destination): try fileManager.createSymbolicLink(atPath: url.path, withDestinationPath: destination)
            }
        }
    }

    /// `text` as a Swift string literal.
    func literal(_ text: String) -> String {
        let escaped = text.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
        return "\"\(escaped)\""
    }
}
