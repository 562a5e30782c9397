import Foundation
import Testing
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// Which keychain access groups a bundle's entitlements give it, and what the host says about
/// a `keychain-access-groups` or `application-identifier` it cannot use.
@Suite("Keychain entitlements")
struct KeychainEntitlementTests {
    static let keychainGroup = "ABCDE12345.com.example.issuer.shared"

    @Test("the groups are keychain-access-groups, then the application identifier, then the App Groups, without repeats")
    func groupOrder() {
        let entitlements = BundleEntitlements(url: nil, values: [
            "keychain-access-groups": .array([.string(Self.keychainGroup), .string("group.com.example.issuer")]),
            "com.apple.security.application-groups": .array([.string("group.com.example.issuer")]),
        ])
        #expect(entitlements.keychainAccessGroups(bundleIdentifier: "com.example.issuer.WNonUIExt", team: "ABCDE12345")
                == [Self.keychainGroup, "com.example.issuer.WNonUIExt", "group.com.example.issuer"])
        let signed = BundleEntitlements(url: nil, values: ["application-identifier": .string("ABCDE12345.com.example.issuer")])
        #expect(signed.keychainAccessGroups(bundleIdentifier: "com.example.issuer", team: "ABCDE12345") == ["ABCDE12345.com.example.issuer"])
        #expect(BundleEntitlements.none.keychainAccessGroups(bundleIdentifier: "com.example.issuer", team: "com.example.issuer")
                == ["com.example.issuer"])
    }

    @Test("a loaded extension carries its groups to the host services")
    func descriptorCarriesGroups() throws {
        var fixture = withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["keychain-access-groups"] = [Self.keychainGroup]
            appExtension.entitlements?["com.apple.developer.team-identifier"] = "ABCDE12345"
            return appExtension
        }
        fixture.entitlements?["com.apple.developer.team-identifier"] = "ABCDE12345"
        fixture.extensions[1].entitlements?["com.apple.developer.team-identifier"] = "ABCDE12345"
        let (app, findings) = try loadFixture(fixture)
        expectNoErrors(findings)
        let bundle = try #require(app?.extensions.first)
        let descriptor = ExtensionDescriptor(bundle: bundle, appGroups: [:])
        #expect(descriptor.team == "ABCDE12345")
        #expect(descriptor.keychainAccessGroups.first == Self.keychainGroup)
        #expect(descriptor.keychainAccessGroups.contains(bundle.bundleIdentifier))
    }

    @Test("keychain-access-groups that is not an array of strings is an error naming the key")
    func wrongType() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["keychain-access-groups"] = Self.keychainGroup
            return appExtension
        })
        expectFinding(findings, .error, key: "keychain-access-groups", pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "is a string, not an array of strings")
    }

    @Test("an element that is not a string, or empty, is an error naming its index")
    func badElements() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["keychain-access-groups"] = [Self.keychainGroup, 7, ""] as [Any]
            return appExtension
        })
        expectFinding(findings, .error, key: "keychain-access-groups[1]", pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "not a string")
        expectFinding(findings, .error, key: "keychain-access-groups[2]", pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "is empty")
    }

    @Test("an application-identifier that is not a string is an error")
    func applicationIdentifierType() throws {
        let (_, findings) = try loadFixture(withFirstExtension {
            var appExtension = $0
            appExtension.entitlements?["application-identifier"] = ["ABCDE12345.com.example.issuer"]
            return appExtension
        })
        expectFinding(findings, .error, key: "application-identifier", pathSuffix: "WNonUIExt.entitlements",
                      mentioning: "not a string")
    }
}
