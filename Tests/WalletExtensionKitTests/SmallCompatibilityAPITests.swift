import Combine
import Foundation
import LocalAuthentication
import os.log
import OSLog
import PassKit
import Testing
import UIKit

/// API issuers' code uses that iOS has and round 3 found missing (issue 19, item 7), and the
/// module names Apple's frameworks go by.
struct SmallCompatibilityAPITests {
    @Test("UIImage() is an empty image; the system colors have their light-mode values")
    func emptyImageAndSystemColors() {
        #expect(UIImage().size == .zero && UIImage().cgImage == nil)
        #expect(UIColor.systemIndigo.green == 86.0 / 255)
        #expect(UIColor.systemGray6.cgColor.components == UIColor.systemGray6.cgColor.components)
        #expect(UIColor.secondaryLabel.alpha == 0.6)
    }

    @Test("LABiometryType.opticID has LocalAuthentication's raw value; canAddPaymentPass is true on the simulated iPhone")
    func opticIDAndCanAddPaymentPass() async {
        #expect(LABiometryType.opticID.rawValue == 4)
        #expect(await PKAddPaymentPassViewController.canAddPaymentPass())
    }

    @Test("import os.log and import OSLog give os's Logger")
    func osLogModules() {
        let logger = Logger(subsystem: "com.example", category: "test")
        logger.debug("compiles through os.log and OSLog")
        #expect(OSLog.disabled.category.isEmpty)
    }

    @Test("import PassKit brings the keychain's constants and functions, as on iOS")
    func passKitBringsSecurity() {
        #expect((kSecClass as String).isEmpty == false)
        var item: CFTypeRef?
        let query: [String: Any] = [kSecClass as String: kSecClassGenericPassword]
        #expect(SecItemCopyMatching(query as CFDictionary, &item) != errSecSuccess, "no host here: nothing to find")
    }

    @Test("Combine: @Published announces objectWillChange before the change, and $property publishes values")
    func publishedAnnouncesChanges() {
        final class Model: ObservableObject, @unchecked Sendable {
            @Published var name = "a"
        }
        let model = Model()
        var seenBefore: [String] = []
        var published: [String] = []
        let willChange = model.objectWillChange.sink { seenBefore.append(model.name) }
        let values = model.$name.sink { published.append($0) }
        model.name = "b"
        model.name = "c"
        #expect(seenBefore == ["a", "b"])
        #expect(published == ["a", "b", "c"])
        willChange.cancel()
        model.name = "d"
        #expect(seenBefore == ["a", "b"])
        _ = values
    }
}
