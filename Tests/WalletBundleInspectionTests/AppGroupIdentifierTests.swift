import Foundation
import Testing
import WalletBundleInspection
import WalletHostRuntime

/// An App Group identifier names a directory under `<state>/AppGroups/`: one that is not a plain
/// path component is an error in `validate`, not a warning (issue 12, item 2).
@Suite("App Group identifiers")
struct AppGroupIdentifierTests {
    private static let unusable = ["", ".", "..", "group.com.example/../..", "../passes", "group.a\nb"]

    @Test("identifiers that are not one plain directory name have a problem", arguments: unusable)
    func unusableIdentifier(_ identifier: String) {
        #expect(AppGroupIdentifier.problem(identifier) != nil)
    }

    @Test("ordinary identifiers have none, with or without the group. prefix",
          arguments: ["group.com.example.issuer", "com.example.shared", "group.x..y"])
    func usableIdentifier(_ identifier: String) {
        #expect(AppGroupIdentifier.problem(identifier) == nil)
    }

    @Test("one byte past a directory name's limit is a problem")
    func tooLong() {
        #expect(AppGroupIdentifier.problem("group." + String(repeating: "a", count: 249)) == nil)
        #expect(AppGroupIdentifier.problem("group." + String(repeating: "a", count: 250))?.contains("256 bytes") == true)
    }

    @Test("validate reports an unusable identifier as an error in the app's and the extension's entitlements",
          arguments: ["", ".", "..", "a/b"])
    func validateError(_ identifier: String) throws {
        var app = AppFixture()
        app.entitlements?["com.apple.security.application-groups"] = [identifier]
        for index in app.extensions.indices {
            app.extensions[index].entitlements?["com.apple.security.application-groups"] = [identifier]
        }
        let (_, findings) = try loadFixture(app)
        let key = "com.apple.security.application-groups[0]"
        expectFinding(findings, .error, key: key, pathSuffix: "Issuer.app/Issuer.entitlements", mentioning: "\"\(identifier)\"")
        expectFinding(findings, .error, key: key, pathSuffix: "WNonUIExt.entitlements", mentioning: "\"\(identifier)\"")
    }
}
