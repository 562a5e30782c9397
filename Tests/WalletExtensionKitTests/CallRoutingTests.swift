import Foundation
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// The SDK dispatches by the method table: it serves exactly the table's calls of its
/// principal's role, lists exactly those in `initialize`, and refuses anything else by name.
@Suite("Call routing by the method table", .timeLimit(.minutes(1)))
struct CallRoutingTests {
    static let handler = "WalletExtensionKitTests.CountingHandler"
    static let controller = "WalletExtensionKitTests.ApprovingAuthorizationController"

    @Test("each kind of principal has a route for every table call of its role, and no other")
    func routesCoverTheTable() {
        let kinds: [(WalletExtensionPrincipal, WireMethodRole)] = [(.handler { CountingHandler() }, .nonUI),
                                                                   (.authorizationController { ApprovingAuthorizationController() }, .ui)]
        for (principal, role) in kinds {
            let served = principal.served
            let expected = WireMethods.calls(for: role).map(\.name)
            #expect(!expected.isEmpty)
            #expect(Set(served.routes.keys) == Set(expected), "\(served.name)")
            #expect(served.methods == expected, "\(served.name) lists what the table says")
            for (name, route) in served.routes {
                #expect(route.method.name == name)
                #expect(route.method.role == role)
            }
        }
    }

    @Test("initialize lists the table's calls of the principal's role", arguments: [
        (handler, WireMethodRole.nonUI), (controller, WireMethodRole.ui),
    ])
    func initializeListsTheTable(principalClass: String, role: WireMethodRole) async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: principalClass)
        let answer = try #require(await harness.output.messages(id: .integer(1)).first)
        #expect(answer["result"]?["methods"] == .array(WireMethods.calls(for: role).map { .string($0.name) }))
    }

    @Test("an unknown method is refused with -32601 naming it, and the runtime goes on serving")
    func unknownMethodIsMethodNotFound() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: Self.handler)
        let answer = try #require(await harness.call("generateAddPaymentPassRequestPlease", id: 2))
        #expect(answer.errorCode == RPCErrorCode.methodNotFound)
        let message = try #require(answer["error"]?["message"]?.stringValue)
        #expect(message.contains("generateAddPaymentPassRequestPlease"), "\(message)")
        #expect(message.contains("not a method of wire protocol"), "\(message)")
        #expect(answer["result"] == nil, "never served as some other call")
        #expect(await harness.call("status", id: 3)?["result"]?["passEntriesAvailable"] == .bool(true))
    }

    @Test("a call of the other extension point is refused with -32601 naming that point", arguments: [
        (handler, WireMethod.authorize, WalletExtensionPoint.authorization),
        (controller, WireMethod.status, WalletExtensionPoint.nonUI),
        (controller, WireMethod.generateAddPaymentPassRequest, WalletExtensionPoint.nonUI),
    ])
    func otherRoleIsMethodNotFound(principalClass: String, method: String, point: String) async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: principalClass)
        let answer = try #require(await harness.call(method, id: 2))
        #expect(answer.errorCode == RPCErrorCode.methodNotFound)
        let message = try #require(answer["error"]?["message"]?.stringValue)
        #expect(message.contains("\(method) is not implemented by \(principalClass)"), "\(message)")
        #expect(message.contains(point), "\(message)")
    }

    @Test("params of the wrong shape are refused with -32602 naming the key, before any handler runs")
    func wrongParamsAreInvalidParams() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: Self.handler)
        let missing = try #require(await harness.call(WireMethod.generateAddPaymentPassRequest, id: 2,
                                                      params: #"{"identifier":"card-1"}"#))
        #expect(missing.errorCode == RPCErrorCode.invalidParams)
        #expect(missing["error"]?["message"]?.stringValue?.contains("\"configuration\"") == true, "\(missing)")

        let notAnObject = try #require(await harness.call(WireMethod.status, id: 3, params: "[1]"))
        #expect(notAnObject.errorCode == RPCErrorCode.invalidParams)
    }
}
