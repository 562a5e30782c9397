import Foundation
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// The PassKit-shaped value types and their wire forms.
struct PassKitTypesTests {
    static let art = CGImage(pngData: Data(base64Encoded:
        "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==")!)!

    static func configuration() -> PKAddPaymentPassRequestConfiguration {
        PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
    }

    @Test("a payment pass entry needs an identifier; an empty title is accepted, as PassKit accepts it")
    func aPaymentPassEntryNeedsAnIdentifier() {
        #expect(PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: "card-1", title: "Debit", art: Self.art, addRequestConfiguration: Self.configuration()) != nil)
        #expect(PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: "", title: "Debit", art: Self.art, addRequestConfiguration: Self.configuration()) == nil)
        #expect(PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: " \n", title: "Debit", art: Self.art, addRequestConfiguration: Self.configuration()) == nil)
        // Apple's own unit tests pass "" and force-unwrap; Wallet's entry check reports the title.
        let untitled = PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: "card-1", title: "", art: Self.art, addRequestConfiguration: Self.configuration())
        #expect(untitled?.title == "")
    }

    @Test func onlyTheTwoWalletEncryptionSchemesMakeAConfiguration() {
        #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2) != nil)
        #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: .RSA_V2) != nil)
        #expect(PKAddPaymentPassRequestConfiguration(encryptionScheme: PKEncryptionScheme(rawValue: "AES")) == nil)
    }

    @Test func anEntryTravelsWithEveryConfigurationField() throws {
        let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .RSA_V2)!
        configuration.style = .access
        configuration.cardholderName = "Jane Appleseed"
        configuration.primaryAccountSuffix = "0005"
        configuration.primaryAccountIdentifier = "FPAN-1"
        configuration.paymentNetwork = .amex
        configuration.localizedDescription = "Example Credit"
        configuration.cardDetails.append(PKLabeledValue(label: "expiration", value: "11/28"))
        configuration.productIdentifiers = ["b", "a"]
        configuration.requiresFelicaSecureElement = true
        let entry = try #require(PKIssuerProvisioningExtensionPaymentPassEntry(
            identifier: "card-1", title: "Credit", art: Self.art, addRequestConfiguration: configuration))
        #expect(entry.wireValue == WirePassEntry(
            identifier: "card-1", title: "Credit", art: WirePassArt(png: Self.art.pngData),
            addRequestConfiguration: WireAddRequestConfiguration(
                encryptionScheme: "RSA_V2", cardholderName: "Jane Appleseed", primaryAccountSuffix: "0005",
                primaryAccountIdentifier: "FPAN-1", paymentNetwork: "AmEx", localizedDescription: "Example Credit",
                style: "access", cardDetails: [WireLabeledValue(label: "expiration", value: "11/28")],
                productIdentifiers: ["a", "b"], requiresFelicaSecureElement: true)))
        let back = PKAddPaymentPassRequestConfiguration(wireValue: entry.wireValue.addRequestConfiguration)
        #expect(back.wireValue == entry.wireValue.addRequestConfiguration)
    }

    @Test func paymentNetworksUsePassKitsRawValues() {
        #expect(PKPaymentNetwork.visa.rawValue == "Visa")
        #expect(PKPaymentNetwork.masterCard.rawValue == "MasterCard")
        #expect(PKPaymentNetwork.amex.rawValue == "AmEx")
        #expect(PKEncryptionScheme.ECC_V2.rawValue == "ECC_V2")
    }

    @Test func anAddRequestLeavesOutWhatWasNotSet() {
        let request = PKAddPaymentPassRequest()
        request.encryptedPassData = Data([1])
        request.activationData = Data([2])
        #expect(request.wireValue == AddPaymentPassRequestResult(activationData: Data([2]), encryptedPassData: Data([1])))
    }

    @Test func caseInsensitiveContainsMatchesNSString() {
        #expect("Jane's Apple Watch".localizedCaseInsensitiveContains("apple watch"))
        #expect(!"iPhone".localizedCaseInsensitiveContains("Apple Watch"))
        #expect(!"iPhone".localizedCaseInsensitiveContains(""))
    }

    @Test func statusesCompareByTheirThreeProperties() {
        let first = PKIssuerProvisioningExtensionStatus()
        let second = PKIssuerProvisioningExtensionStatus()
        #expect(first == second)
        second.requiresAuthentication = true
        #expect(first != second)
        first.requiresAuthentication = true
        #expect(first == second && first.hash == second.hash)
    }

    @Test func libraryPassesCompareByAccountAndDevice() {
        let phone = PKSecureElementPass(wireValue: WireSecureElementPass(
            primaryAccountIdentifier: "A", primaryAccountNumberSuffix: "1234", deviceName: "iPhone", isRemotePass: false))
        let samePhone = PKSecureElementPass(wireValue: WireSecureElementPass(
            primaryAccountIdentifier: "A", primaryAccountNumberSuffix: "1234", deviceName: "iPhone", isRemotePass: false))
        let watch = PKSecureElementPass(wireValue: WireSecureElementPass(
            primaryAccountIdentifier: "A", primaryAccountNumberSuffix: "1234", deviceName: "Apple Watch", isRemotePass: true))
        #expect(phone == samePhone && phone.hash == samePhone.hash)
        #expect(phone != watch)
        #expect(phone.secureElementPass === phone)
        #expect(phone.passType == .secureElement)
        #expect(phone.passActivationState == .activated)
        #expect(phone.deviceAccountNumberSuffix == "1234")
        #expect(PKPass().secureElementPass == nil)
    }

    @Test func subclassesOverrideWhatTheyMock() {
        final class MockLibrary: PKPassLibrary {
            let stored: [PKPass]
            init(_ passes: [PKPass]) { stored = passes }
            override func passes(of passType: PKPassType) -> [PKPass] { stored }
        }
        final class RemotePass: PKSecureElementPass {
            override var isRemotePass: Bool { true }
            override var deviceName: String { "Apple Watch" }
            override var primaryAccountIdentifier: String { "W" }
        }
        final class LocalPass: PKSecureElementPass {
            override var primaryAccountIdentifier: String { "L" }
        }
        let library = MockLibrary([RemotePass(), LocalPass()])
        #expect(library.remoteSecureElementPasses.map(\.primaryAccountIdentifier) == ["W"])
        #expect(library.passes().compactMap { $0.secureElementPass?.primaryAccountIdentifier } == ["L"])
        #expect(!library.canAddSecureElementPass(primaryAccountIdentifier: "W"))
        #expect(library.canAddSecureElementPass(primaryAccountIdentifier: "X"))
    }

    @available(*, deprecated)
    @Test func theDeprecatedPaymentNamesStillCompile() {
        #expect(PKPassType.payment == .secureElement)
        let pass: PKPaymentPass = PKSecureElementPass()
        #expect(pass.paymentPass === pass)
    }
}
