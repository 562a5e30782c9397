import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

@Suite("Planning an import: the app, its Wallet extensions, their manifests and tests")
struct ImportPlannerTests {
    private func plan(configuration: String = "Release") throws -> (ImportPlan, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "xcode-import-plan")
        let synthetic = try SyntheticProject(root: directory.url)
        return (try ImportPlanner.plan(try ProjectFileReader.read(synthetic.xcodeproj), configuration: configuration), directory)
    }

    private func dictionary(_ data: Data?) throws -> [String: Any] {
        let data = try #require(data)
        return try #require(try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any])
    }

    @Test("the app embeds both extensions; the unit-test target tests the one it imports")
    func targets() throws {
        let (plan, directory) = try plan()
        defer { directory.remove() }
        let app = try #require(plan.apps.first)
        #expect(plan.apps.count == 1)
        #expect(app.app.bundleName == "AcmeBank.app")
        #expect(app.extensions.map(\.moduleName) == ["AcmeCards", "AcmeLogin"])
        #expect(app.extensions.map(\.principalClass) == ["AcmeCardsHandler", "LoginViewController"])
        #expect(app.extensions.map(\.swiftLanguageMode) == ["5", "6"])
        #expect(plan.tests.map(\.name) == ["AcmeCardsTests"])
        #expect(plan.tests.first?.testedModules == ["AcmeCards"])
    }

    @Test("Info.plist: the file merged with INFOPLIST_KEY_ settings, every variable expanded, the deployment target")
    func infoPlist() throws {
        let (plan, directory) = try plan()
        defer { directory.remove() }
        let cards = try dictionary(plan.apps.first?.extensions.first?.infoPlist)
        #expect(cards["CFBundleIdentifier"] as? String == "com.acme.wallet.app.acmecards")
        #expect(cards["CFBundleExecutable"] as? String == "AcmeCards")
        #expect(cards["CFBundlePackageType"] as? String == "XPC!")
        #expect(cards["CFBundleDisplayName"] as? String == "Acme Cards")
        #expect(cards["CFBundleShortVersionString"] as? String == "2.4", "from the .xcconfig the project includes")
        #expect(cards["MinimumOSVersion"] as? String == "17.4", "the target's deployment target over the project's")
        let point = try #require(cards["NSExtension"] as? [String: Any])
        #expect(point["NSExtensionPrincipalClass"] as? String == "AcmeCards.AcmeCardsHandler")
        let app = try dictionary(plan.apps.first?.app.infoPlist)
        #expect(app["CFBundlePackageType"] as? String == "APPL")
        #expect(app["UIRequiresFullScreen"] as? Bool == true, "a YES setting is a boolean in the plist")
        #expect(app["MinimumOSVersion"] as? String == "17.0")
    }

    @Test("entitlements: $(AppIdentifierPrefix) from DEVELOPMENT_TEAM, the identifiers signing adds")
    func entitlements() throws {
        let (plan, directory) = try plan()
        defer { directory.remove() }
        let cards = try #require(plan.apps.first?.extensions.first)
        let entitlements = try dictionary(cards.entitlements)
        #expect(entitlements["keychain-access-groups"] as? [String] == ["\(SyntheticProject.team).com.acme.shared"])
        #expect(entitlements["application-identifier"] as? String == "\(SyntheticProject.team).com.acme.wallet.app.acmecards")
        #expect(entitlements["com.apple.developer.team-identifier"] as? String == SyntheticProject.team)
        #expect(cards.appGroups == [SyntheticProject.appGroup])
        #expect(plan.apps.first?.app.appGroups == [SyntheticProject.appGroup])
    }

    @Test("what cannot be carried gets one line naming its target")
    func notCarried() throws {
        let (plan, directory) = try plan()
        defer { directory.remove() }
        #expect(plan.notCarried.contains { $0.hasPrefix("target AcmeCards: LegacyBridge.m") })
        #expect(plan.notCarried.contains { $0.hasPrefix("target AcmeBank: Main.storyboard") })
        #expect(plan.notCarried.contains("target AcmeBank: script phase \"Upload Symbols\" is not run"))
        #expect(plan.notCarried.contains { $0.hasPrefix("target AcmeBank: the app's 1 Swift files are not built") })
    }

    @Test("a configuration the project lacks is named with the ones it has")
    func unknownConfiguration() throws {
        let error = try #require(throws: ImportError.self) { _ = try plan(configuration: "Staging") }
        #expect(error.description.contains("no build configuration \"Staging\" (it has Debug, Release)"))
    }
}
