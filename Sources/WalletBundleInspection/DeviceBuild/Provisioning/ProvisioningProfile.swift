import Foundation
import WalletWire

/// An `embedded.mobileprovision`: the property list inside its CMS (PKCS #7 SignedData)
/// envelope, with what a device checks before it installs or launches the app.
///
/// The envelope's signature is not verified (that needs Apple's certificate chain); the
/// profile is read for what it allows and until when.
struct ProvisioningProfile {
    /// The whole property list.
    var values: [String: PropertyListValue]

    /// `1.2.840.113549.1.7.2`, CMS SignedData.
    static let signedDataIdentifier = Data([0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])

    /// `Name`, as Xcode shows the profile.
    var name: String? { values["Name"]?.stringValue }
    /// `ExpirationDate`.
    var expirationDate: Date? {
        if case .date(let date)? = values["ExpirationDate"] { date } else { nil }
    }
    /// `Entitlements`: what apps signed with this profile may claim.
    var entitlements: [String: PropertyListValue] { values["Entitlements"]?.dictionaryValue ?? [:] }

    /// Reads the property list out of the envelope.
    /// - Throws: ``DERFormatError`` when the bytes are not a CMS SignedData holding a property list dictionary.
    init(cmsEnvelope data: Data) throws(DERFormatError) {
        let plist = try Self.encapsulatedContent(of: data)
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
        } catch {
            throw DERFormatError("holds content that is not a property list")
        }
        guard case .dictionary(let values)? = PropertyListValue(foundationValue: parsed) else {
            throw DERFormatError("holds a property list whose top level is not a dictionary")
        }
        self.values = values
    }

    /// ContentInfo { contentType signedData, [0] SignedData { version, digestAlgorithms,
    /// encapContentInfo { eContentType, [0] OCTET STRING }, ... } }.
    private static func encapsulatedContent(of data: Data) throws(DERFormatError) -> Data {
        let notSignedData = DERFormatError("is not a CMS SignedData envelope, which a provisioning profile is")
        let (contentInfo, _) = try DERElement.read(data)
        guard contentInfo.tag == DERElement.sequenceTag else { throw notSignedData }
        let parts = try contentInfo.children()
        guard parts.count >= 2,
              parts[0].tag == DERElement.objectIdentifierTag, parts[0].content == signedDataIdentifier,
              parts[1].tag == DERElement.contextZeroTag else {
            throw notSignedData
        }
        guard let signedData = try parts[1].children().first, signedData.tag == DERElement.sequenceTag else {
            throw DERFormatError("has a CMS envelope without its SignedData")
        }
        let fields = try signedData.children()
        guard fields.count >= 3, fields[2].tag == DERElement.sequenceTag else {
            throw DERFormatError("has a SignedData without its encapsulated content")
        }
        let encapsulated = try fields[2].children()
        guard encapsulated.count >= 2, encapsulated[1].tag == DERElement.contextZeroTag,
              let octets = try encapsulated[1].children().first,
              octets.tag == DERElement.octetStringTag || octets.tag == DERElement.constructedOctetStringTag else {
            throw DERFormatError("has a detached CMS signature with no property list inside")
        }
        return try octets.octets()
    }
}
