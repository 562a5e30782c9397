// WNonUIExtHandlerTests.swift
//
// The issuer's XCTest unit tests of its non-UI extension, run with `swift test`.

import PassKit
import XCTest
@testable import GuideNonUIExt

final class WNonUIExtHandlerTests: XCTestCase {
    private var passLibrary: MockPKPassLibrary!
    private var defaults: MockUserDefaults!

    override func setUp() {
        super.setUp()
        passLibrary = MockPKPassLibrary()
        defaults = MockUserDefaults()
        defaults.addPassCredentialJson("123", cardholderName: "Johnny Appleseed", primaryAccountSuffix: "1234", expiration: "11/28")
        defaults.addPassCredentialJson("456", cardholderName: "Johnny Appleseed", primaryAccountSuffix: "4567", expiration: "04/29")
        defaults.addPassCredentialJson("789", cardholderName: "Johnny Appleseed", primaryAccountSuffix: "7890", expiration: "09/27")
    }

    private func handler(paired: Bool = true) -> WNonUIExtHandler {
        WNonUIExtHandler(passLibrary: passLibrary, sharedDefaults: defaults,
                         watchSession: MockWatchConnectivitySession(paired: paired))
    }

    func testStatus() {
        passLibrary.mockPasses = [MockPKPass(primaryAccountIdentifier: "123", isRemote: false),
                                  MockPKPass(primaryAccountIdentifier: "123", isRemote: true)]
        let expected = PKIssuerProvisioningExtensionStatus()
        expected.passEntriesAvailable = true
        expected.remotePassEntriesAvailable = true
        expected.requiresAuthentication = true
        let expectation = expectation(description: "status completes")
        handler().status { status in
            XCTAssertEqual(status, expected)
            expectation.fulfill()
        }
        wait(for: [expectation], timeout: 1)
    }

    func testStatusWithEveryCardAddedAndNoWatch() {
        passLibrary.mockPasses = ["123", "456", "789"].map { MockPKPass(primaryAccountIdentifier: $0, isRemote: false) }
        defaults.requiresAuthentication = false
        var reported: PKIssuerProvisioningExtensionStatus?
        handler(paired: false).status { reported = $0 }
        let status = try? XCTUnwrap(reported)
        XCTAssertEqual(status?.passEntriesAvailable, false)
        XCTAssertEqual(status?.remotePassEntriesAvailable, false)
        XCTAssertEqual(status?.requiresAuthentication, false)
    }

    func testPassEntriesForIphone() {
        passLibrary.mockPasses = [MockPKPass(primaryAccountIdentifier: "456", isRemote: false),
                                  MockPKPass(primaryAccountIdentifier: "789", isRemote: true)]
        var identifiers: [String] = []
        handler().passEntries { entries in identifiers = entries.map(\.identifier) }
        XCTAssertEqual(identifiers, ["123", "789"])
    }

    func testRemotePassEntriesForAppleWatch() {
        passLibrary.mockPasses = [MockPKPass(primaryAccountIdentifier: "456", isRemote: false),
                                  MockPKPass(primaryAccountIdentifier: "789", isRemote: true)]
        var entries: [PKIssuerProvisioningExtensionPassEntry] = []
        handler().remotePassEntries { entries = $0 }
        XCTAssertEqual(entries.map(\.identifier), ["123", "456"])
        let entry = entries.first as? PKIssuerProvisioningExtensionPaymentPassEntry
        XCTAssertEqual(entry?.addRequestConfiguration.primaryAccountSuffix, "1234")
        XCTAssertEqual(entry?.addRequestConfiguration.cardDetails.first?.value, "11/28")
        XCTAssertGreaterThan(entry?.art.width ?? 0, 0, "the SF Symbol placeholder stands in for the missing art")
    }

    func testGenerateAddPaymentPassRequest() {
        let configuration = PKAddPaymentPassRequestConfiguration(encryptionScheme: .ECC_V2)!
        configuration.primaryAccountIdentifier = "123"
        var request: PKAddPaymentPassRequest?
        handler().generateAddPaymentPassRequestForPassEntryWithIdentifier(
            "123", configuration: configuration, certificateChain: [Data([1, 2, 3])],
            nonce: Data([9, 9]), nonceSignature: Data([8, 8])) { request = $0 }
        XCTAssertEqual(request?.ephemeralPublicKey?.count, 65)
        XCTAssertEqual(request?.ephemeralPublicKey?.first, 0x04)
        XCTAssertEqual(request?.encryptedPassData, Data([9, 9, 8, 8]))
        XCTAssertNil(request?.wrappedKey)
    }

    func testMockedPassesCompareAsNSObjects() {
        let pass = MockPKPass(primaryAccountIdentifier: "123", isRemote: false)
        XCTAssertEqual(pass, pass)
        XCTAssertNotEqual(pass, MockPKPass(primaryAccountIdentifier: "123", isRemote: false))
        XCTAssertTrue(passLibrary.passes(of: .barcode).isEmpty)
    }
}
