import DeviceBuildFixtures
import Foundation
import Testing
@testable import WalletBundleInspection
import WalletWire

/// `embedded.mobileprovision`: the property list inside its CMS envelope (DER or BER), and
/// what a profile allows.
@Suite("provisioning profiles")
struct ProvisioningProfileTests {
    static let plist = try! PropertyListSerialization.data(fromPropertyList: [
        "Name": "Issuer", "ExpirationDate": Date(timeIntervalSince1970: 2_000_000_000),
        "Entitlements": ["keychain-access-groups": ["A1B2C3D4E5.*"]],
    ] as [String: Any], format: .xml, options: 0)

    @Test("reads the property list from DER and from BER with indefinite lengths", arguments: [false, true])
    func readsTheEnvelope(indefinite: Bool) throws {
        let profile = try ProvisioningProfile(cmsEnvelope: CMSEnvelope.wrap(Self.plist, indefiniteLength: indefinite))
        #expect(profile.name == "Issuer")
        #expect(profile.expirationDate == Date(timeIntervalSince1970: 2_000_000_000))
        #expect(profile.entitlements["keychain-access-groups"] == .array([.string("A1B2C3D4E5.*")]))
    }

    @Test("reads a BER octet string sent in chunks")
    func readsAChunkedOctetString() throws {
        let half = Self.plist.count / 2
        let chunked = CMSEnvelope.element(0x24, CMSEnvelope.element(0x04, Self.plist.prefix(half)) + CMSEnvelope.element(0x04, Self.plist.dropFirst(half)))
        let dataOID = Data([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])
        let encapsulated = CMSEnvelope.element(0x30, dataOID + CMSEnvelope.element(0xA0, chunked))
        let signedData = CMSEnvelope.element(0x30, CMSEnvelope.element(0x02, Data([1])) + CMSEnvelope.element(0x31, Data()) + encapsulated)
        let envelope = CMSEnvelope.element(0x30, CMSEnvelope.element(0x06, ProvisioningProfile.signedDataIdentifier) + CMSEnvelope.element(0xA0, signedData))
        #expect(try ProvisioningProfile(cmsEnvelope: envelope).name == "Issuer")
    }

    static func failure(_ data: Data) -> String {
        do {
            _ = try ProvisioningProfile(cmsEnvelope: data)
            return "no error"
        } catch {
            return error.description
        }
    }

    @Test func malformedEnvelopesSaySo() {
        #expect(Self.failure(Self.plist) == "is not a CMS SignedData envelope, which a provisioning profile is")
        #expect(Self.failure(Data()) == "ends inside an element header")
        #expect(Self.failure(CMSEnvelope.wrap(Self.plist).prefix(200)).contains("running past the end"))
        #expect(Self.failure(CMSEnvelope.element(0x30, CMSEnvelope.element(0x06, Data([1, 2, 3])))) == "is not a CMS SignedData envelope, which a provisioning profile is")
        #expect(Self.failure(CMSEnvelope.wrap(Data("not a plist".utf8))) == "holds content that is not a property list")
        let array = try! PropertyListSerialization.data(fromPropertyList: [1, 2], format: .xml, options: 0)
        #expect(Self.failure(CMSEnvelope.wrap(array)) == "holds a property list whose top level is not a dictionary")
        var deep = Data()
        for _ in 0..<40 { deep = Data([0x30, 0x80]) + deep }
        #expect(Self.failure(deep + Data(repeating: 0, count: 80)).contains("nests deeper than"))
    }

    @Test("a profile value allows a signed one", arguments: [
        (PropertyListValue.array([.string("A1B2C3D4E5.*")]), PropertyListValue.array([.string("A1B2C3D4E5.com.x.shared")]), true),
        (.array([.string("A1B2C3D4E5.*")]), .array([.string("ZZZ.com.x.shared")]), false),
        (.string("A1B2C3D4E5.com.x"), .string("A1B2C3D4E5.com.x"), true),
        (.string("A1B2C3D4E5.*"), .string("A1B2C3D4E5.com.x"), true),
        (.string("A1B2C3D4E5.com.x"), .string("A1B2C3D4E5.com.y"), false),
        (.bool(true), .bool(true), true),
        (.bool(true), .bool(false), true),
        (.bool(false), .bool(true), false),
        (.array([.string("group.a"), .string("group.b")]), .array([.string("group.b")]), true),
        (.array([.string("group.a")]), .array([.string("group.a"), .string("group.c")]), false),
    ])
    func allows(allowed: PropertyListValue, signed: PropertyListValue, expected: Bool) {
        #expect(ProvisioningChecks.allows(allowed, signed) == expected)
    }
}
