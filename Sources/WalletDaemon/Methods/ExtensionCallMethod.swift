import Foundation
import Wallet
import WalletDaemonClient
import WalletHostRuntime
import WalletWire

/// `extension.call`, the client API's one call: the daemon's warm process for the `.appex`
/// runs it, and the answer is the report `wallet-host call --json` prints (plus, when asked,
/// the human transcript), so a call through the daemon prints what an in-process one does.
///
/// Every call takes the runner's one path (``ExtensionRunner/start(_:params:resultType:deadline:ticket:completion:)``)
/// and can be cancelled: a client's `$/cancelRequest` answers it at once with the cancelled
/// error and sends `$/cancelRequest` to the extension. To a warm process it is started on the
/// client loop's thread and answered from the I/O reactor's thread that read the extension's
/// response: no task, no other thread woken. What could block the loop (loading or reloading a
/// bundle, a launch, the device's PKI) or wait (a missed deadline's late answer) takes a task.
enum ExtensionCallMethod {
    struct Params: Codable, Sendable, PlainJSONDecodable {
        var appex: String
        var method: String
        var params: JSONValue?
        /// This call's deadline in milliseconds, instead of the daemon's for the method.
        var deadlineMs: Double?
        /// Also answer the human transcript.
        var transcript: Bool?
        /// Answer the outcome as typed members in place of the report.
        var outcome: Bool?
        /// The client answers a UI extension's `ui.prompt` and `ui.biometric` requests.
        var userAgent: Bool?

        /// The params from a flat plain object (``WireCodec/plainParams(from:)``), as
        /// `JSONDecoder` reads them; nil when the members are not of the plain types (method
        /// params that are not `{}` or `null`, a fractional deadline): `JSONDecoder` reads them.
        init?(plainMembers members: [String: PlainScalar]) {
            guard case .string(let appex)? = members["appex"], case .string(let method)? = members["method"] else { return nil }
            self.appex = appex
            self.method = method
            switch members["params"] {
            case nil, .null?: params = nil
            case .emptyObject?: params = .object([:])
            default: return nil
            }
            switch members["deadlineMs"] {
            case nil, .null?: deadlineMs = nil
            case .integer(let milliseconds)?: deadlineMs = Double(milliseconds)
            default: return nil
            }
            switch members["transcript"] {
            case nil, .null?: transcript = nil
            case .bool(let wanted)?: transcript = wanted
            default: return nil
            }
            switch members["outcome"] {
            case nil, .null?: outcome = nil
            case .bool(let wanted)?: outcome = wanted
            default: return nil
            }
            switch members["userAgent"] {
            case nil, .null?: userAgent = nil
            case .bool(let wanted)?: userAgent = wanted
            default: return nil
            }
        }
    }

    struct Answer<Report: Encodable & Sendable>: Encodable, Sendable {
        var report: Report?
        var outcome: DaemonAPI.CallOutcomeRecord?
        var transcript: String?
        var succeeded: Bool
    }

    static func register(on server: DaemonServer) {
        let pool = server.pool
        let hub = server.hub
        server.register(DaemonMethods.extensionCall.name, starting: { request in
            let params: Params
            let deadline: Duration?
            do {
                params = try request.call.params(Params.self)
                deadline = try Self.deadline(params)
            } catch {
                return request.answer(.failure(error))
            }
            let methodParams = params.params ?? .object([:])
            let from = hub.nextSequence
            if params.method != WireMethod.generateAddPaymentPassRequest, params.userAgent != true,
               let runner = try? pool.runner(forAppex: params.appex, loading: false), runner.isWarm {
                let ticket = CallTicket()
                request.onCancel { ticket.cancel() }
                MethodResultShape.start(runner, method: params.method, params: methodParams, deadline: deadline, ticket: ticket) { outcome in
                    if Self.waitsForLateAnswer(outcome) {
                        request.answer(inTask: { _ in await answer(outcome, runner: runner, params: params, hub: hub, from: from) })
                    } else {
                        request.answer(.success(answer(outcome, runner: runner, params: params, lateNote: nil)))
                    }
                }
                return
            }
            let client = request.call.client
            request.answer(inTask: { _ in
                guard let pooled = try pool.runner(forAppex: params.appex) else { throw DaemonError("cannot load \(params.appex)") }
                // A UI extension whose client answers for its user: a process of the call's own, whose prompts go to the client.
                let own = params.userAgent == true && pooled.descriptor.point.role == .ui
                    ? runner(like: pooled, answeredBy: client, pool: pool) : nil
                let runner = own ?? pooled
                let provisioning = params.method == WireMethod.generateAddPaymentPassRequest
                    ? try? ProvisioningCall(params: methodParams, state: pool.device.state) : nil
                let outcome = await MethodResultShape.call(runner, method: params.method, params: provisioning?.params ?? methodParams,
                                                           deadline: deadline)
                let answer = await answer(outcome, runner: runner, params: params, hub: hub, from: from,
                                          verification: provisioning?.verify(outcome), clientAnswered: own != nil)
                await own?.stop(reason: "call finished")
                return answer
            })
        })
    }

    /// A runner for `pooled`'s extension whose user agent is the client, stopped after its call.
    private static func runner(like pooled: ExtensionRunner, answeredBy client: ClientSession, pool: ExtensionPool) -> ExtensionRunner {
        var configuration = pool.configuration
        configuration.services = DeviceServices(device: pool.device, userAgent: ForwardingUserAgent(client: client))
        configuration.idleTimeout = nil
        return ExtensionRunner(descriptor: pooled.descriptor, configuration: configuration)
    }

    private static func deadline(_ params: Params) throws(RPCErrorObject) -> Duration? {
        try params.deadlineMs.map { milliseconds throws(RPCErrorObject) in
            guard let deadline = DurationText.milliseconds(milliseconds) else {
                throw RPCErrorObject(code: RPCErrorCode.invalidParams, message: "invalid params for extension.call: deadlineMs "
                                     + "\(milliseconds) is not a duration from 0 to \(DurationText.maximumText)")
            }
            return deadline
        }
    }

    /// A call that missed its deadline: the report says how it ended, after the grace.
    private static func waitsForLateAnswer(_ outcome: CallOutcome<any Encodable & Sendable>) -> Bool {
        if case .failure(let error) = outcome.result, error.kind == .deadlineExceeded, outcome.pid != nil { return true }
        return false
    }

    /// The answer, after waiting (from event `from` on, the call's first) for how a call that
    /// missed its deadline ended.
    private static func answer(_ outcome: CallOutcome<any Encodable & Sendable>, runner: ExtensionRunner, params: Params,
                               hub: EventHub, from: Int, verification: PassDataVerification? = nil,
                               clientAnswered: Bool = false) async -> any Encodable & Sendable {
        var lateNote: String?
        if waitsForLateAnswer(outcome), let pid = outcome.pid {
            // The hang verdict comes at the end of the grace: wait a little past it.
            let event = await hub.firstEvent(from: from, within: runner.configuration.hangGrace + .milliseconds(200)) {
                $0.pid == pid && CallReport.endsTheWait($0)
            }
            lateNote = CallReport.lateNote(event)
        }
        // The call's connections through the egress proxy, for the transcript (as `wallet-host call` prints them).
        let network = (params.transcript == true || params.outcome == true) && outcome.pid != nil
            ? hub.events(from: from) { $0.kind == .networkConnection && $0.pid == outcome.pid }.map { "network: \($0.message)" } : []
        return answer(outcome, runner: runner, params: params, lateNote: lateNote, verification: verification,
                      networkLines: network, clientAnswered: clientAnswered)
    }

    /// - Parameter verification: for `generateAddPaymentPassRequest`, what the host made of the payload.
    private static func answer(_ outcome: CallOutcome<any Encodable & Sendable>, runner: ExtensionRunner, params: Params,
                               lateNote: String?,
                               verification: PassDataVerification? = nil, networkLines: [String] = [],
                               clientAnswered: Bool = false) -> any Encodable & Sendable {
        let shownDeadline = outcome.deadline
        let succeeded: Bool
        if case .failure = outcome.result { succeeded = false } else { succeeded = true }
        // Card art goes to the device's state directory, as `wallet-host call` in process writes it.
        let artDirectory = params.transcript == true || params.outcome == true
            ? (runner.configuration.services as? DeviceServices)?.device.state.url.appendingPathComponent("art") : nil
        var transcript: String?
        if params.transcript == true {
            transcript = CallReport.human(outcome, executable: runner.descriptor.executableName, deadline: shownDeadline,
                                          lateNote: lateNote, artDirectory: artDirectory)
            if let verification { transcript! += "\npayload: \(verification.summary)" }
            if let note = SandboxSummary.note(outcome) { transcript! += "\n" + note }
            for line in networkLines { transcript! += "\n" + line }
        }
        if params.outcome == true {
            var record = DaemonAPI.CallOutcomeRecord(outcome, executable: runner.descriptor.executableName, lateNote: lateNote,
                                                     verification: verification, network: networkLines,
                                                     artDirectory: artDirectory?.path)
            record.userAgent = clientAnswered ? true : nil
            return Answer<JSONValue>(report: nil, outcome: record, transcript: transcript, succeeded: succeeded)
        }
        let answer = { @Sendable [transcript] () -> any Encodable & Sendable in
            Answer(report: CallReport.object(outcome, deadline: shownDeadline, lateNote: lateNote, sandboxed: outcome.sandboxed,
                                             verification: verification),
                   transcript: transcript, succeeded: succeeded)
        }
        guard transcript == nil, lateNote == nil, verification == nil,
              let plain = PlainCallAnswer(outcome, deadlineMilliseconds: shownDeadline?.milliseconds, encodable: answer) else { return answer() }
        return plain
    }
}
