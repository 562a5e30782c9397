import ConformanceEngine
import Foundation
import Wallet
import WalletHostRuntime
import WalletWire

/// Where `call`, `add-card` and `conform` run: in this process (``InProcessSession``) or on the
/// daemon serving the state directory (``DaemonSession``), chosen once by ``DaemonRoute``.
/// Each operation answers a typed result that the command renders itself, so a command prints
/// the same whichever route ran it.
protocol HostSession {
    /// One call of an extension's method.
    func call(_ request: CallRequest) async throws -> CallSessionResult

    /// Wallet's add-card flow, its transcript given line by line as it goes.
    func addCard(_ request: AddCardRequest) async throws -> AddCardSessionResult

    /// The conformance battery against each extension, each report's lines given as its checks end.
    func conform(_ appexes: [URL], onLine: @escaping @Sendable (String) -> Void) async throws -> [ConformanceReport]
}

/// What `call` asks for.
struct CallRequest: Sendable {
    var appex: URL
    var method: String
    var params: JSONValue
    /// `--deadline METHOD=DURATION`'s deadline for this method, when given.
    var deadline: Duration?
    /// Who answers a UI extension's prompts (`--user-agent FILE`, `--interactive` or neither).
    var userAgentFile: URL?
    var interactive = false
    /// Whether stdout carries the JSON report, so prompts must not.
    var json = false
}

/// One call's outcome with what its report shows beside it, whichever route ran it.
struct CallSessionResult: Sendable {
    var outcome: CallOutcome<any Encodable & Sendable>
    /// The extension's executable, as the report names its process.
    var executable: String
    /// How a call that missed its deadline ended, after the hang grace.
    var lateNote: String?
    /// For `generateAddPaymentPassRequest`: what the host made of the payload.
    var verification: PassDataVerification?
    /// The call's connections through the egress proxy, as `network: …` lines.
    var networkLines: [String] = []
    /// Where the device keeps card art (the report writes each entry's art there).
    var artDirectory: URL?
    /// Every event the host logged for the call and the extension's output (in this process only).
    var events: EventCollector?
    /// Who answered a UI extension, for the notes after the report.
    var user: AddCardUserChoice?
}

/// What `add-card` asks for: the flow's options, the user, and where its transcript goes.
struct AddCardRequest: Sendable {
    var options: AddCardOptions
    var user: AddCardUserChoice
    /// The agent that answers the UI extension (the user's, wrapped to transcribe and record).
    var answering: any UserAgent
    var transcript: @Sendable (String) -> Void
    /// Whether to collect the entries the flow is offered (for `--html`, which draws their art).
    var wantsOffered = false
}

/// The flow's report, and the entries it was offered (for the HTML page).
struct AddCardSessionResult: Sendable {
    var report: FlowReport
    var offered: [WirePassEntry] = []
}
