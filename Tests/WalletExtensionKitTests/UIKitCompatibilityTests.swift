import Foundation
import LocalAuthentication
import Synchronization
import Testing
@testable import UIKit
@testable import WalletExtensionKit
@testable import WalletExtensionRuntime
import WatchConnectivity
import WalletTestSupport
import WalletWire

/// What a principal controller saw, in order.
private let journal = Mutex<[String]>([])

private func note(_ entry: String) {
    journal.withLock { $0.append(entry) }
}

/// A login written as for iOS: an alert with two text fields, presented when the view appears.
final class AlertLoginController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func loadView() { note("loadView"); super.loadView() }
    override func viewDidLoad() { super.viewDidLoad(); note("viewDidLoad") }
    override func viewWillAppear(_ animated: Bool) { super.viewWillAppear(animated); note("viewWillAppear") }
    override func viewWillDisappear(_ animated: Bool) { super.viewWillDisappear(animated); note("viewWillDisappear") }
    override func viewDidDisappear(_ animated: Bool) { super.viewDidDisappear(animated); note("viewDidDisappear") }

    override func viewDidAppear(_ animated: Bool) {
        super.viewDidAppear(animated)
        note("viewDidAppear")
        let alert = UIAlertController(title: "Sign in", message: "Use your bank login", preferredStyle: .alert)
        alert.addTextField { $0.placeholder = "User name" }
        alert.addTextField { field in
            field.placeholder = "Password"
            field.isSecureTextEntry = true
        }
        alert.addAction(UIAlertAction(title: "Cancel", style: .cancel) { [weak self] _ in self?.completionHandler?(.canceled) })
        let logIn = UIAlertAction(title: "Log In", style: .default) { [weak self, weak alert] _ in
            note("Log In: \(alert?.textFields?.map { $0.text ?? "" } ?? [])")
            self?.completionHandler?(.authorized)
        }
        alert.addAction(logIn)
        alert.preferredAction = logIn
        present(alert, animated: true) { note("presented") }
    }
}

/// Face ID through LocalAuthentication.
final class FaceIDController: UIViewController, PKIssuerProvisioningExtensionAuthorizationProviding {
    var completionHandler: ((PKIssuerProvisioningExtensionAuthorizationResult) -> Void)?

    override func viewDidLoad() {
        super.viewDidLoad()
        LAContext().evaluatePolicy(.deviceOwnerAuthenticationWithBiometrics, localizedReason: "Add your cards") { success, error in
            DispatchQueue.main.async { [weak self] in
                note("Face ID: \(success) \((error as? LAError)?.code.rawValue ?? 0)")
                self?.completionHandler?(success ? .authorized : .canceled)
            }
        }
    }
}

/// Completes from another queue through `[weak self]`, after the call's thread has moved on.
final class WeakSelfHandler: PKIssuerProvisioningExtensionHandler {
    let answer = true

    override func status(completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
        // `[weak self]` as Swift 5 code writes it; the box only gets it past Swift 6's checks.
        final class WeakSelf: @unchecked Sendable {
            weak var handler: WeakSelfHandler?
            let completion: (PKIssuerProvisioningExtensionStatus) -> Void
            init(_ handler: WeakSelfHandler, _ completion: @escaping (PKIssuerProvisioningExtensionStatus) -> Void) {
                self.handler = handler
                self.completion = completion
            }
        }
        let weakSelf = WeakSelf(self, completion)
        DispatchQueue.global().asyncAfter(deadline: .now() + .milliseconds(30)) {
            guard let handler = weakSelf.handler else { return }
            let status = PKIssuerProvisioningExtensionStatus()
            status.passEntriesAvailable = handler.answer
            weakSelf.completion(status)
        }
    }
}

/// UIKit, LocalAuthentication and handler lifetime through the runtime, with the test as the host.
/// Serialized: the journal and the process-wide runtime that host services use are shared.
@Suite("UIKit and LocalAuthentication", .serialized, .processRuntime, .timeLimit(.minutes(1)))
struct UIKitCompatibilityTests {
    static let principals: [WalletExtensionPrincipal] = [
        .authorizationController { AlertLoginController() }, .authorizationController { FaceIDController() },
        .handler { WeakSelfHandler() },
    ]

    /// A harness installed as the process's runtime, so that host services reach it.
    private func harness(principal: String) -> RuntimeHarness {
        journal.withLock { $0 = [] }
        let harness = RuntimeHarness(registered: Self.principals)
        ExtensionRuntime.current.withLock { $0 = harness.runtime }
        harness.initialize(principalClass: principal)
        return harness
    }

    @Test("an alert becomes ui.prompt; the chosen action runs with the typed text; the controller appears and disappears in UIKit's order")
    func alertBecomesAPrompt() async throws {
        let harness = harness(principal: "AlertLoginController")
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        let prompt = try #require(await harness.output.messages(id: .string("ext-1")).first)
        #expect(prompt["method"] == .string("ui.prompt"))
        #expect(prompt["params"]?["title"] == .string("Sign in"))
        #expect(prompt["params"]?["message"] == .string("Use your bank login"))
        #expect(prompt["params"]?["actions"] == .array([.string("Log In"), .string("Cancel")]), "the preferred action first")
        #expect(prompt["params"]?["fields"] == .array([
            .object(["name": .string("username"), "label": .string("User name"), "secure": .bool(false)]),
            .object(["name": .string("password"), "label": .string("Password"), "secure": .bool(true)]),
        ]))
        harness.send(#"{"jsonrpc":"2.0","id":"ext-1","result":{"action":"Log In","values":{"username":"jane","password":"pw"}}}"#)
        let answer = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(answer["result"]?["result"] == .string("authorized"))
        try await waitFor("the controller disappeared") { journal.withLock { $0.last == "viewDidDisappear" } }
        #expect(journal.withLock { $0 } == ["loadView", "viewDidLoad", "viewWillAppear", "viewDidAppear", "presented",
                                            "Log In: [\"jane\", \"pw\"]", "viewWillDisappear", "viewDidDisappear"])
    }

    @Test("when the host cannot show the alert, its cancel action runs")
    func unansweredAlertCancels() async throws {
        let harness = harness(principal: "AlertLoginController")
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        _ = await harness.output.messages(id: .string("ext-1"))
        harness.send(#"{"jsonrpc":"2.0","id":"ext-1","error":{"code":-32601,"message":"no user agent"}}"#)
        let answer = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(answer["result"]?["result"] == .string("canceled"))
    }

    @Test("LAContext.evaluatePolicy becomes ui.biometric; a failed check is LAError.authenticationFailed", arguments: [true, false])
    func faceIDBecomesABiometricRequest(match: Bool) async throws {
        let harness = harness(principal: "FaceIDController")
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        harness.send(#"{"jsonrpc":"2.0","id":2,"method":"authorize","params":{}}"#)
        let request = try #require(await harness.output.messages(id: .string("ext-1")).first)
        #expect(request["method"] == .string("ui.biometric"))
        #expect(request["params"]?["reason"] == .string("Add your cards"))
        harness.send(#"{"jsonrpc":"2.0","id":"ext-1","result":{"success":\#(match)}}"#)
        let answer = try #require(await harness.output.messages(id: .integer(2)).first)
        #expect(answer["result"]?["result"] == .string(match ? "authorized" : "canceled"))
        #expect(journal.withLock { $0 } == ["Face ID: \(match) \(match ? 0 : LAError.Code.authenticationFailed.rawValue)"])
    }

    @Test("a handler completing through [weak self] on another queue is kept alive until it completes")
    func handlersLiveUntilTheyComplete() async throws {
        let harness = harness(principal: "WeakSelfHandler")
        defer { ExtensionRuntime.current.withLock { $0 = nil } }
        let answer = await harness.call("status", id: 2)
        #expect(answer?["result"]?["passEntriesAvailable"] == .bool(true))
    }

    @Test("WCSession calls its delegate after activate() returns, on another thread; isPaired is false without a host")
    func watchSessionActivation() async throws {
        final class Delegate: NSObject, WCSessionDelegate, @unchecked Sendable {
            let completed = Mutex<(state: WCSessionActivationState, onMainThread: Bool)?>(nil)
            func session(_ session: WCSession, activationDidCompleteWith activationState: WCSessionActivationState,
                         error: Error?) {
                completed.withLock { $0 = (activationState, Thread.isMainThread) }
            }
            func sessionDidBecomeInactive(_ session: WCSession) {}
            func sessionDidDeactivate(_ session: WCSession) {}
        }
        let delegate = Delegate()
        let session = WCSession.default
        #expect(WCSession.isSupported())
        session.delegate = delegate
        session.activate()
        try await waitFor("activation completed") { delegate.completed.withLock { $0 != nil } }
        #expect(delegate.completed.withLock { $0?.state } == .activated)
        #expect(session.activationState == .activated)
        #expect(!session.isPaired, "no host runs this process: the service fails and isPaired is false")
        session.delegate = nil
    }
}
