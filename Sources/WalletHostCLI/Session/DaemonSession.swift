import ConformanceEngine
import Foundation
import Wallet
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// The commands' operations on the daemon serving the state directory (or the one `--connect`
/// names): its warm extensions, its device, its limits. The daemon answers typed results
/// (the call's outcome, the flow's report, the conformance reports), which the commands render
/// as they render an in-process run.
struct DaemonSession: HostSession {
    let client: DaemonClient

    /// The call on the daemon's warm process; a UI extension's (`authorize`, or any call given
    /// `--user-agent` or `--interactive`) on a process of the call's own whose prompts come here,
    /// answered by the user the command line chose.
    func call(_ request: CallRequest) async throws -> CallSessionResult {
        let mayAskUser = request.userAgentFile != nil || request.interactive || request.method == WireMethod.authorize
        let user = mayAskUser
            ? try AddCardUserChoice.choose(userAgentFile: request.userAgentFile, interactive: request.interactive, json: request.json)
            : nil
        let params = DaemonAPI.ExtensionCallParams(appex: request.appex.standardizedFileURL.path, method: request.method,
                                                   params: request.params, deadlineMs: request.deadline?.milliseconds, outcome: true,
                                                   userAgent: user != nil ? true : nil)
        let point = ExtensionPointRegistry.wallet.points.first { $0.method(named: request.method) != nil }
        // A UI extension waits on its user, who sees the prompts: no "no answer yet" beside them.
        let progress = CallProgress(method: request.method, executable: request.appex.deletingPathExtension().lastPathComponent,
                                    deadline: request.deadline ?? point?.method(named: request.method)?.deadline,
                                    firstAfter: user == nil ? .seconds(1) : .seconds(24 * 3600))
        let agent = user?.agent
        let answer = try await progress.reporting {
            try await DaemonRoute.call(client, DaemonMethods.extensionCall, params, onRequest: { message in
                guard let agent else { throw RPCErrorObject(code: RPCErrorCode.methodNotFound, message: "this client answers no user") }
                return try await Self.answer(message, as: agent)
            })
        }
        guard let record = answer.outcome else {
            throw CommandFailure("the daemon answered extension.call without the outcome: it predates this wallet-host")
        }
        return CallSessionResult(outcome: record.outcome, executable: record.executable, lateNote: record.lateNote,
                                 verification: record.verification, networkLines: record.network,
                                 artDirectory: record.artDirectory.map { URL(fileURLWithPath: $0) },
                                 user: record.userAgent == true ? user : nil)
    }

    /// A UI extension's `ui.prompt` or `ui.biometric`, forwarded by the daemon, answered by `agent`.
    private static func answer(_ request: DaemonMessage, as agent: any UserAgent) async throws -> any Encodable & Sendable {
        switch request.method {
        case WireMethod.uiPrompt?:
            return try await agent.prompt(DaemonClient.decode(UIPromptParams.self, from: request.params ?? .null))
        case WireMethod.uiBiometric?:
            return try await agent.biometric(DaemonClient.decode(UIBiometricParams.self, from: request.params ?? .null))
        default:
            throw RPCErrorObject(code: RPCErrorCode.methodNotFound, message: "this client does not answer \(request.method ?? "")")
        }
    }

    /// The flow on the daemon's warm extensions: its transcript lines arrive as notifications;
    /// the UI extension's prompts arrive as requests and are answered here, by the request's
    /// user agent. With `--interactive`, the bank and the cards the options leave open are asked
    /// here as the flow reaches them (`wallet.chooseIssuer`, `wallet.chooseEntries`).
    func addCard(_ request: AddCardRequest) async throws -> AddCardSessionResult {
        let options = request.options
        var select: [String]?
        switch options.selection {
        case .all?: select = ["all"]
        case .identifiers(let identifiers)?: select = identifiers
        case nil: select = nil
        }
        let chooser = request.user.chooser
        let params = DaemonAPI.AddCardParams(issuer: options.issuer, device: options.device, select: select, userAgent: true,
                                             entries: request.wantsOffered ? true : nil, choose: chooser != nil ? true : nil)
        let answerer = request.answering
        let transcript = request.transcript
        let offered = OfferedEntries()
        let report = try await DaemonRoute.call(client, DaemonMethods.walletAddCard, params, onNotification: { message in
            if let line = message.params(of: DaemonMethods.walletTranscript) { transcript(line.line) }
            if let entries = message.params(of: DaemonMethods.walletEntries) { offered.append(entries.entries) }
        }, onRequest: { request in
            switch request.method {
            case DaemonMethods.walletChooseIssuer.name? where chooser != nil:
                let choice = try DaemonClient.decode(DaemonAPI.IssuerChoice.self, from: request.params ?? .null)
                return DaemonAPI.ChosenIssuer(issuer: await chooser?.chooseIssuer(choice.issuers))
            case DaemonMethods.walletChooseEntries.name? where chooser != nil:
                let choice = try DaemonClient.decode(DaemonAPI.OfferedEntries.self, from: request.params ?? .null)
                switch await chooser?.chooseEntries(choice.entries) {
                case .identifiers(let identifiers)?: return DaemonAPI.ChosenEntries(select: identifiers)
                case .all?, nil: return DaemonAPI.ChosenEntries(select: ["all"])
                }
            default:
                return try await Self.answer(request, as: answerer)
            }
        })
        return AddCardSessionResult(report: report, offered: offered.entries)
    }

    /// The checks run by the daemon, on its device and event log; the reports come back as
    /// `conform --json` writes them and are read into their type again.
    func conform(_ appexes: [URL], onLine: @escaping @Sendable (String) -> Void) async throws -> [ConformanceReport] {
        let params = DaemonAPI.ConformParams(appexes: appexes.map(\.standardizedFileURL.path), junit: false)
        let answer = try await DaemonRoute.call(client, DaemonMethods.extensionConform, params, onNotification: { message in
            if let report = message.params(of: DaemonMethods.conformReport) { onLine(report.text) }
        })
        do {
            return try JSONDecoder().decode(ConformanceRun.self, from: Data(answer.json.utf8)).reports
        } catch {
            throw CommandFailure("the daemon answered extension.conform with \(WireCodec.describe(error))")
        }
    }
}

/// `conform --json`'s document, read back.
private struct ConformanceRun: Decodable {
    var reports: [ConformanceReport]
}
