import Testing
@testable import PassKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// NSExtensionPrincipalClass names the class main.swift registered.
struct PrincipalClassResolverTests {
    @Test func aModuleQualifiedHandlerIsFoundByName() throws {
        let principal = try PrincipalClassResolver(registered: TestPrincipals.all).resolve("WalletExtensionKitTests.CountingHandler")
        #expect(principal.name == "WalletExtensionKitTests.CountingHandler")
        #expect(principal.methods == WireMethods.calls(for: .nonUI).map(\.name))
    }

    @Test func aViewControllerAdoptingTheProtocolServesAuthorize() throws {
        let principal = try PrincipalClassResolver(registered: TestPrincipals.all)
            .resolve("WalletExtensionKitTests.ApprovingAuthorizationController")
        #expect(principal.methods == WireMethods.calls(for: .ui).map(\.name))
    }

    @Test func aNestedClassIsFoundByItsLastComponent() throws {
        let principal = try PrincipalClassResolver(registered: TestPrincipals.all).resolve("NestedHandler")
        #expect(principal.name == "WalletExtensionKitTests.Namespace.NestedHandler")
    }

    @Test func aNameNotRegisteredIsRefusedNamingWhatIsRegistered() {
        let resolver = PrincipalClassResolver(registered: [.handler { CountingHandler() }])
        do {
            _ = try resolver.resolve("WNonUIExt.WNonUIExtHandler")
            Issue.record("an unregistered class resolved")
        } catch {
            #expect(error.code == RPCErrorCode.principalClassNotFound)
            #expect(error.message.contains("WNonUIExt.WNonUIExtHandler"), "\(error.message)")
            #expect(error.message.contains("WalletExtensionKitTests.CountingHandler"), "\(error.message)")
        }
    }
}
