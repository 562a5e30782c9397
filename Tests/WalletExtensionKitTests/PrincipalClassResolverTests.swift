import Testing
@testable import WalletExtensionKit
import WalletWire

/// NSExtensionPrincipalClass names a class the runtime must find without help.
struct PrincipalClassResolverTests {
    @Test func aModuleQualifiedHandlerIsFoundByName() throws {
        let principal = try PrincipalClassResolver(registered: []).resolve("WalletExtensionKitTests.CountingHandler")
        guard case .provisioningHandler(let type) = principal else {
            Issue.record("expected a provisioning handler, got \(principal)")
            return
        }
        #expect(type == CountingHandler.self)
        #expect(principal.name == "WalletExtensionKitTests.CountingHandler")
    }

    @Test func aViewControllerAdoptingTheProtocolIsAnAuthorizationProvider() throws {
        let principal = try PrincipalClassResolver(registered: []).resolve("WalletExtensionKitTests.ApprovingAuthorizationController")
        guard case .authorizationProvider = principal else {
            Issue.record("expected an authorization provider, got \(principal)")
            return
        }
    }

    @Test func theRegistrationListResolvesNamesTheRuntimeCannot() throws {
        let resolver = PrincipalClassResolver(registered: [Namespace.NestedHandler.self])
        let principal = try resolver.resolve("NestedHandler")
        guard case .provisioningHandler(let type) = principal else {
            Issue.record("expected a provisioning handler")
            return
        }
        #expect(type == Namespace.NestedHandler.self)
        #expect(throws: RPCErrorObject.self) { try PrincipalClassResolver(registered: []).resolve("NestedHandler") }
    }

    @Test(arguments: [
        ("WNonUIExt.WNonUIExtHandler", "WNonUIExt.WNonUIExtHandler"),
        ("Swift.Int", "neither"),
        ("WalletExtensionKitTests.NonProvidingController", "does not adopt"),
    ])
    func otherNamesAreRefusedWithAReason(name: String, reasonFragment: String) {
        do {
            _ = try PrincipalClassResolver(registered: []).resolve(name)
            Issue.record("\(name) resolved")
        } catch {
            #expect(error.code == RPCErrorCode.principalClassNotFound)
            #expect(error.message.contains(reasonFragment), "\(error.message)")
        }
    }
}
