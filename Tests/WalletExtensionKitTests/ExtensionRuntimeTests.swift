import Foundation
import Testing
@testable import CoreGraphics
@testable import PassKit
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WalletWire

/// The runtime's side of the protocol, driven in-process: handshake, dispatch to fresh
/// instances, single-shot answers, cancellation, shutdown and exit.
@Suite("Extension runtime", .timeLimit(.minutes(1)))
struct ExtensionRuntimeTests {
    @Test func initializeListsTheMethodsOfAHandler() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")
        let answer = try #require(await harness.output.messages(id: .integer(1)).first)
        #expect(answer["result"]?["methods"] == .array(["status", "passEntries", "remotePassEntries",
                                                        "generateAddPaymentPassRequest"].map(JSONValue.string)))
        #expect(answer["result"]?["runtime"]?["name"] == .string("WalletExtensionKit"))
        #expect(answer["result"]?["protocolVersion"] == .integer(WireProtocol.version))
    }

    @Test func initializeListsAuthorizeForAUIPrincipal() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.ApprovingAuthorizationController")
        let answer = try #require(await harness.output.messages(id: .integer(1)).first)
        #expect(answer["result"]?["methods"] == .array([.string("authorize")]))
    }

    @Test func requestsBeforeInitializeAreRefused() async {
        let harness = RuntimeHarness()
        let answer = await harness.call("status", id: 7)
        #expect(answer?.errorCode == RPCErrorCode.notInitialized)
    }

    @Test func anotherProtocolVersionIsRefusedWithTheSupportedOnes() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler", protocolVersion: 2)
        let answer = try #require(await harness.output.messages(id: .integer(1)).first)
        #expect(answer.errorCode == RPCErrorCode.unsupportedProtocolVersion)
        #expect(answer["error"]?["data"]?["supported"] == .array([.integer(WireProtocol.version)]))
        #expect(await harness.call("status", id: 2)?.errorCode == RPCErrorCode.notInitialized)
    }

    @Test func anUnknownPrincipalClassIsNamedInTheError() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WNonUIExt.NoSuchHandler")
        let answer = try #require(await harness.output.messages(id: .integer(1)).first)
        #expect(answer.errorCode == RPCErrorCode.principalClassNotFound)
        #expect(answer["error"]?["message"]?.stringValue?.contains("WNonUIExt.NoSuchHandler") == true)
    }

    @Test func everyCallGetsAFreshInstance() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")
        let before = CountingHandler.processCalls.load(ordering: .relaxed)
        for id in 2...6 {
            let answer = await harness.call("status", id: id)
            #expect(answer?["result"]?["passEntriesAvailable"] == .bool(true), "instance reused for call \(id)")
        }
        #expect(CountingHandler.processCalls.load(ordering: .relaxed) - before >= 5)
    }

    @Test func asyncFormsAnswerWhenOnlyTheyAreOverridden() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.AsyncOnlyHandler")
        let status = await harness.call("status", id: 2)
        #expect(status?["result"]?["remotePassEntriesAvailable"] == .bool(true))
        let params = GenerateAddPaymentPassRequestParams(
            identifier: "card-1", configuration: WireAddRequestConfiguration(encryptionScheme: "ECC_V2"),
            certificateChain: [Data([1, 2])], nonce: Data("nonce".utf8), nonceSignature: Data("sig".utf8))
        let paramsJSON = String(decoding: try JSONEncoder().encode(params), as: UTF8.self)
        let request = await harness.call("generateAddPaymentPassRequest", id: 3, params: paramsJSON)
        let key = try #require(request?["result"]?["ephemeralPublicKey"]?.stringValue)
        #expect(Data(base64Encoded: key)?.count == 65)
        #expect(request?["result"]?["encryptedPassData"] == .string(Data("nonce".utf8).base64EncodedString()))
    }

    @Test func aCallWithNeitherFormOverriddenFailsInsteadOfRecursing() async {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.EmptyHandler")
        for (id, method) in [(2, "status"), (3, "passEntries"), (4, "remotePassEntries")] {
            let answer = await harness.call(method, id: id)
            #expect(answer?.errorCode == RPCErrorCode.methodNotFound, "\(method)")
        }
    }

    @Test func aSecondCompletionIsDropped() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.DoubleCompletingHandler")
        _ = await harness.call("status", id: 2)
        // The handler calls its completion twice in a row on one thread, and the first answer is
        // here: a second would be written microseconds later, so 50 ms gives it ample time to show.
        try await Task.sleep(for: .milliseconds(50))
        let answers = harness.output.messages.filter { $0["id"] == .integer(2) }
        #expect(answers.count == 1)
        #expect(answers.first?["result"]?["requiresAuthentication"] == .bool(false))
    }

    @Test func aCancelledBlockedCallIsAnsweredOnceWhenItFinallyCompletes() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.BlockingHandler")
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"status","params":{}}"#)
        // The blocked call holds its own thread only: other calls and the cancel still go through.
        #expect(await harness.call("passEntries", id: 3)?["result"]?["entries"] == .array([]))
        harness.send(#"{"jsonrpc":"2.0","method":"$/cancelRequest","params":{"id":2}}"#)
        // The reader handles a cancel as it reads it and would write an answer to it at once; the
        // reader is idle (passEntries was answered), so 50 ms is ample for an answer that must not come.
        try await Task.sleep(for: .milliseconds(50))
        #expect(harness.output.messages.filter { $0["id"] == .integer(2) }.isEmpty, "a cancel alone sends nothing")
        BlockingHandler.release.signal()
        let late = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(late["result"] != nil, "the late completion goes to the host, which logs how late it was")
        // A repeat would come from the same completion, written right after the first: 50 ms is ample.
        try await Task.sleep(for: .milliseconds(50))
        #expect(harness.output.messages.filter { $0["id"] == .integer(2) }.count == 1)
    }

    @Test func unknownMethodsAndUnreadableLinesAreAnswered() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")
        #expect(await harness.call("teleport", id: 2)?.errorCode == RPCErrorCode.methodNotFound)
        harness.send("this is not JSON")
        let parseErrors = await harness.output.messages(id: .null)
        #expect(parseErrors.first?.errorCode == RPCErrorCode.parseError)
        harness.runtime.receiveOversizedLine(byteCount: WireProtocol.maximumLineBytes + 1)
        let errors = await harness.output.messages(id: .null, count: 2)
        #expect(errors.last?.errorCode == RPCErrorCode.lineTooLong)
    }

    @Test func shutdownAnswersNullAndRefusesNewCalls() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.CountingHandler")
        let answer = try #require(await harness.call("shutdown", id: 2))
        #expect(answer["result"] == .null)
        #expect(await harness.call("status", id: 3)?.errorCode == RPCErrorCode.invalidRequest)
    }

    @Test func exitAndEndOfInputEndTheProcess() {
        let harness = RuntimeHarness()
        harness.send(#"{"jsonrpc":"2.0","method":"exit","params":{}}"#)
        harness.runtime.receiveEndOfInput()
        #expect(harness.exits.statuses.withLock { $0 } == [0, 0])
    }

    @Test func handlerCodeWrittenForPassKitRunsUnchanged() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.PortedFromPassKitHandler")
        #expect(await harness.call("status", id: 2)?["result"]?["requiresAuthentication"] == .bool(true))
        #expect(await harness.call("passEntries", id: 3)?["result"]?["entries"] == .array([]))
        #expect(await harness.call("remotePassEntries", id: 4)?["result"]?["entries"] == .array([]))
        let params = #"{"certificateChain":[],"configuration":{"cardDetails":[],"encryptionScheme":"RSA_V2","productIdentifiers":[],"requiresFelicaSecureElement":false,"style":"payment"},"identifier":"x","nonce":"","nonceSignature":""}"#
        let request = await harness.call("generateAddPaymentPassRequest", id: 5, params: params)
        #expect(request?["result"]?["wrappedKey"] == .string(Data([9]).base64EncodedString()))
    }

    @Test func authorizationCompletesWhenTheControllerSaysSo() async throws {
        let harness = RuntimeHarness()
        harness.initialize(principalClass: "WalletExtensionKitTests.ApprovingAuthorizationController")
        let answer = await harness.call("authorize", id: 2)
        #expect(answer?["result"]?["result"] == .string("authorized"))
    }
}

/// Host services go out as the extension's own requests and come back through the reader.
/// Serialized: it installs the process-wide runtime that PKPassLibrary talks to.
@Suite("Host services", .serialized, .processRuntime, .timeLimit(.minutes(1)))
struct HostServiceTests {
    @Test func aSynchronousPassLibraryCallWaitsForTheHostsAnswer() async throws {
        let harness = RuntimeHarness()
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.initialize(principalClass: "WalletExtensionKitTests.PassLibraryHandler")
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"status","params":{}}"#)

        let serviceRequest = try #require(await harness.output.messages(id: .string("ext-1")).first)
        #expect(serviceRequest["method"] == .string("passLibrary.passes"))
        #expect(serviceRequest["params"]?["passType"] == .string("secureElement"))
        harness.send(#"""
            {"jsonrpc":"2.0","id":"ext-1","result":[
             {"primaryAccountIdentifier":"A","primaryAccountNumberSuffix":"4242","deviceName":"iPhone","isRemotePass":false},
             {"primaryAccountIdentifier":"B","primaryAccountNumberSuffix":"0005","deviceName":"Jane's Apple Watch","isRemotePass":true}]}
            """#.replacingOccurrences(of: "\n", with: ""))

        let status = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(status["result"] == .object(["passEntriesAvailable": .bool(true), "remotePassEntriesAvailable": .bool(true),
                                             "requiresAuthentication": .bool(true)]))
    }

    @Test func aServiceErrorIsAnEmptyPassLibraryAsOnIOS() async throws {
        let harness = RuntimeHarness()
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.initialize(principalClass: "WalletExtensionKitTests.PassLibraryHandler")
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"status","params":{}}"#)
        _ = await harness.output.messages(id: .string("ext-1"))
        harness.send(#"{"jsonrpc":"2.0","id":"ext-1","error":{"code":-32015,"message":"state unreadable"}}"#)
        let status = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(status["result"]?["passEntriesAvailable"] == .bool(false))
    }

    @Test func withoutAHostServicesFailAsNotRunningUnderHost() {
        #expect(PKPassLibrary().passes(of: .secureElement).isEmpty)
        #expect(throws: HostServiceError.self) {
            try WalletUserInterface.prompt(UIPromptParams(title: "t", fields: [], actions: ["OK"]))
        }
    }
}
