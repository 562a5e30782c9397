import Foundation
import Testing
import Wallet
import WalletHostRuntime
import WalletTestSupport
import WalletWire

/// The simulated device's host services, asked directly (issue 12, items 9 and 10).
@Suite("Device services")
struct DeviceServicesTests {
    static let bank = "com.example.bank"
    static let otherBank = "com.example.otherbank"

    private static func freshDevice() -> SimulatedDevice {
        SimulatedDevice(state: StateDirectory(url: TemporaryDirectory.uniqueURL(prefix: "wallet-host-services")))
    }

    /// A request line as the extension would send it; `params` is raw JSON, nil for none.
    private static func request(_ method: String, params: String?, from extensionIdentifier: String = "\(bank).WNonUIExt",
                                app: String? = bank) -> ServiceRequest {
        let paramsMember = params.map { #","params":\#($0)"# } ?? ""
        let line = Data(#"{"id":1,"jsonrpc":"2.0","method":"\#(method)"\#(paramsMember)}"#.utf8)
        return ServiceRequest(method: method, line: line, extensionPoint: WalletExtensionPoint.nonUI, role: .nonUI,
                              bundleIdentifier: extensionIdentifier, containingAppBundleIdentifier: app)
    }

    private static func accounts(_ result: any Encodable & Sendable) throws -> [String] {
        try #require(result as? [WireSecureElementPass]).map(\.primaryAccountIdentifier).sorted()
    }

    // MARK: watch.isPaired

    @Test("watch.isPaired answers for {} and for absent params", arguments: ["{}", nil] as [String?])
    func isPairedAnswers(params: String?) async throws {
        let services = DeviceServices(device: Self.freshDevice())
        let answer = try await services.respond(to: Self.request(WireMethod.watchIsPaired, params: params))
        #expect(answer as? Bool == true)
    }

    @Test("watch.isPaired with params that are not an object is -32602 naming the problem",
          arguments: ["[1, 2]", "\"yes\"", "42", "true"])
    func isPairedRejectsNonObjectParams(params: String) async throws {
        let services = DeviceServices(device: Self.freshDevice())
        let error = await #expect(throws: RPCErrorObject.self) {
            _ = try await services.respond(to: Self.request(WireMethod.watchIsPaired, params: params))
        }
        #expect(error?.code == RPCErrorCode.invalidParams)
        #expect(error?.message == "invalid params: params: expected Dictionary<String, Any>")
        // The same words passLibrary.passes uses for the same mistake.
        let passesError = await #expect(throws: RPCErrorObject.self) {
            _ = try await services.respond(to: Self.request(WireMethod.passLibraryPasses, params: params))
        }
        #expect(passesError == error)
    }

    // MARK: passLibrary.passes

    /// Two banks' cards on the iPhone and the watch.
    private static func deviceWithTwoIssuers() throws -> SimulatedDevice {
        let device = freshDevice()
        try device.addPass(PassRecord(primaryAccountIdentifier: "BANK-1", primaryAccountNumberSuffix: "1111", device: .iphone,
                                      issuer: bank))
        try device.addPass(PassRecord(primaryAccountIdentifier: "BANK-2", primaryAccountNumberSuffix: "2222", device: .watch,
                                      issuer: bank))
        try device.addPass(PassRecord(primaryAccountIdentifier: "OTHER-1", primaryAccountNumberSuffix: "9999", device: .iphone,
                                      issuer: otherBank))
        try device.addPass(PassRecord(primaryAccountIdentifier: "OTHER-2", primaryAccountNumberSuffix: "8888", device: .watch,
                                      issuer: otherBank))
        return device
    }

    @Test("passLibrary.passes answers each extension with its own issuer's passes, on the iPhone and the watch")
    func eachIssuerSeesOnlyItsOwnPasses() async throws {
        let services = DeviceServices(device: try Self.deviceWithTwoIssuers())
        let params = #"{"passType":"secureElement"}"#
        let bankPasses = try await services.respond(to: Self.request(WireMethod.passLibraryPasses, params: params))
        #expect(try Self.accounts(bankPasses) == ["BANK-1", "BANK-2"])
        let otherPasses = try await services.respond(to: Self.request(
            WireMethod.passLibraryPasses, params: params, from: "\(Self.otherBank).WNonUIExt", app: Self.otherBank))
        #expect(try Self.accounts(otherPasses) == ["OTHER-1", "OTHER-2"])
        let strangerPasses = try await services.respond(to: Self.request(
            WireMethod.passLibraryPasses, params: params, from: "com.example.stranger.Ext", app: "com.example.stranger"))
        #expect(try Self.accounts(strangerPasses).isEmpty)
    }

    @Test("an issuer whose identifier prefixes another's does not see the other's passes")
    func prefixIssuerIsNotOwner() async throws {
        // com.example.bank's passes must not reach com.example.bank.plus's extension, and back.
        let device = try Self.deviceWithTwoIssuers()
        try device.addPass(PassRecord(primaryAccountIdentifier: "PLUS-1", primaryAccountNumberSuffix: "3333", device: .iphone,
                                      issuer: "\(Self.bank).plus"))
        let services = DeviceServices(device: device)
        let plus = try await services.respond(to: Self.request(
            WireMethod.passLibraryPasses, params: #"{"passType":"secureElement"}"#, from: "\(Self.bank).plus.Ext",
            app: "\(Self.bank).plus"))
        #expect(try Self.accounts(plus) == ["PLUS-1"])
    }

    @Test("an extension loaded outside an app sees the passes of the issuer its identifier starts with")
    func loneExtensionFallsBackToItsIdentifierPrefix() async throws {
        let services = DeviceServices(device: try Self.deviceWithTwoIssuers())
        let passes = try await services.respond(to: Self.request(
            WireMethod.passLibraryPasses, params: #"{"passType":"secureElement"}"#, from: "\(Self.otherBank).WNonUIExt", app: nil))
        #expect(try Self.accounts(passes) == ["OTHER-1", "OTHER-2"])
    }
}
