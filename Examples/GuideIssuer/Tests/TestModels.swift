// TestModels.swift
//
// Mocks of PassKit, UserDefaults and the watch session, as an issuer writes them for XCTest.

import PassKit
@testable import GuideNonUIExt

class MockUserDefaults: UserDefaults {
    private var passCredentialsData: [String: ProvisioningCredential] = [:]
    var requiresAuthentication = true

    override func data(forKey defaultName: String) -> Data? {
        if defaultName == "PaymentPassCredentials" && !passCredentialsData.isEmpty {
            return try? JSONEncoder().encode(passCredentialsData)
        }
        return nil
    }

    override func bool(forKey defaultName: String) -> Bool {
        defaultName == "ShouldRequireAuthenticationForAppleWallet" ? requiresAuthentication : false
    }

    func addPassCredentialJson(_ primaryAccountIdentifier: String, cardholderName: String,
                               primaryAccountSuffix: String, expiration: String) {
        passCredentialsData[primaryAccountIdentifier] = ProvisioningCredential(
            primaryAccountIdentifier: primaryAccountIdentifier, label: "Card \(primaryAccountSuffix)", assetName: "",
            cardholderName: cardholderName, localizedDescription: "", primaryAccountSuffix: primaryAccountSuffix,
            expiration: expiration)
    }
}

class MockPKPassLibrary: PKPassLibrary {
    var mockPasses: [PKPass] = []

    override func passes(of passType: PKPassType) -> [PKPass] {
        passType == .secureElement ? mockPasses : []
    }
}

class MockPKPass: PKPass {
    var primaryAccountIdentifier: String = ""
    var isRemote: Bool = false

    init(primaryAccountIdentifier: String, isRemote: Bool) {
        super.init()
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.isRemote = isRemote
    }

    override var passType: PKPassType { .secureElement }

    override var deviceName: String { isRemote ? "Apple Watch" : "iPhone" }

    override var isRemotePass: Bool { isRemote }

    override var secureElementPass: PKSecureElementPass? {
        let pass = MockPKSecureElementPass()
        pass.primaryAccountIdentifierOverride = primaryAccountIdentifier
        return pass
    }
}

class MockPKSecureElementPass: PKSecureElementPass {
    var primaryAccountIdentifierOverride = ""

    override var primaryAccountIdentifier: String { primaryAccountIdentifierOverride }
}

class MockWatchConnectivitySession: WatchConnectivitySession {
    var paired: Bool

    init(paired: Bool = true) {
        self.paired = paired
    }

    override var isPaired: Bool { paired }
}
