import Foundation
import Testing
import WalletTestSupport

/// `new` and `bundle` refusing what they cannot do, each naming the file, folder or value at fault,
/// before anything is built.
@Suite("wallet-host new and bundle: what they refuse", .timeLimit(.minutes(2)))
struct NewAndBundleRefusalTests {
    @Test("new: a NAME that cannot start a target, an unknown --ui and a folder that is not empty are refused; --ui none has no UI extension")
    func newRefusals() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-new-refusals")
        defer { directory.remove() }
        let badName = try WalletHostCommand.run(["new", "1Bank", "--out", directory.url.appendingPathComponent("a").path])
        #expect(badName.status == 2)
        #expect(badName.standardError.contains("NAME \"1Bank\" must be a letter followed by letters and digits"), "\(badName.standardError)")
        let badUI = try WalletHostCommand.run(["new", "Bank", "--ui", "cocoa", "--out", directory.url.appendingPathComponent("b").path])
        #expect(badUI.status == 2)
        #expect(badUI.standardError.contains("--ui cocoa: one of swiftui, uikit, none"), "\(badUI.standardError)")
        let occupied = directory.url.appendingPathComponent("occupied")
        try FileManager.default.createDirectory(at: occupied, withIntermediateDirectories: true)
        try Data("mine\n".utf8).write(to: occupied.appendingPathComponent("notes.txt"))
        let refused = try WalletHostCommand.run(["new", "Bank", "--out", occupied.path, "--sdk", BuildProducts.repositoryRoot.path])
        #expect(refused.status == 1)
        #expect(refused.standardError.contains("\(occupied.path) is not empty (it holds notes.txt)"), "\(refused.standardError)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: occupied.path) == ["notes.txt"], "nothing written")

        let plain = directory.url.appendingPathComponent("Plain")
        let made = try WalletHostCommand.run(["new", "Plain", "--ui", "none", "--out", plain.path, "--sdk", BuildProducts.repositoryRoot.path])
        #expect(made.status == 0, "\(made.standardError)")
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("Sources/PlainSignIn").path))
        #expect(!FileManager.default.fileExists(atPath: plain.appendingPathComponent("Bundles/Plain.app/PlugIns/PlainSignIn.appex").path))
        let manifest = try String(contentsOf: plain.appendingPathComponent("Package.swift"), encoding: .utf8)
        #expect(manifest.contains(".package(path: \(String(reflecting: BuildProducts.repositoryRoot.standardizedFileURL.path)))"), "\(manifest)")
        #expect(!manifest.contains("PlainSignIn"))
    }

    @Test("bundle: no Package.swift, no Bundles/APP.app, an Info.plist without CFBundleExecutable, two entitlements: each named")
    func bundleRefusals() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-bundle-refusals")
        defer { directory.remove() }
        let noPackage = try WalletHostCommand.run(["bundle", directory.url.path])
        #expect(noPackage.status == 1)
        #expect(noPackage.standardError.contains("\(directory.url.path) has no Package.swift"), "\(noPackage.standardError)")

        try Data("// swift-tools-version:6.0\n".utf8).write(to: directory.url.appendingPathComponent("Package.swift"))
        let noBundles = try WalletHostCommand.run(["bundle", directory.url.path])
        #expect(noBundles.status == 1)
        #expect(noBundles.standardError.contains("Bundles holds no APP.app folder"), "\(noBundles.standardError)")

        let appex = directory.url.appendingPathComponent("Bundles/Bank.app/PlugIns/BankCards.appex")
        try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
        let plist = { (body: String) in
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\"><dict>\(body)</dict></plist>\n"
        }
        try Data(plist("<key>CFBundleExecutable</key><string>BankApp</string>").utf8)
            .write(to: directory.url.appendingPathComponent("Bundles/Bank.app/Info.plist"))
        try Data(plist("<key>CFBundleName</key><string>BankCards</string>").utf8).write(to: appex.appendingPathComponent("Info.plist"))
        let noExecutable = try WalletHostCommand.run(["bundle", directory.url.path])
        #expect(noExecutable.status == 1)
        #expect(noExecutable.standardError.contains("\(appex.path)/Info.plist has no CFBundleExecutable"), "\(noExecutable.standardError)")

        try Data(plist("<key>CFBundleExecutable</key><string>BankCards</string>").utf8).write(to: appex.appendingPathComponent("Info.plist"))
        for name in ["A.entitlements", "B.entitlements"] { try Data(plist("").utf8).write(to: appex.appendingPathComponent(name)) }
        let twoEntitlements = try WalletHostCommand.run(["bundle", directory.url.path])
        #expect(twoEntitlements.status == 1)
        #expect(twoEntitlements.standardError.contains("holds A.entitlements and B.entitlements"), "\(twoEntitlements.standardError)")
    }
}
