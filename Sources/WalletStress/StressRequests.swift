import Wallet
import WalletHostRuntime
import WalletWire

/// Calls a method with valid params as Wallet's add-card flow sends them, and reduces the typed
/// outcome to what a stress run measures: `passEntries` and `remotePassEntries` take no params;
/// `generateAddPaymentPassRequest` gets the first entry the extension offered (read once before
/// the load) with fresh certificate chain, nonce and signature each time, as Wallet makes them
/// card by card.
struct StressRequests: Sendable {
    /// The entry `generateAddPaymentPassRequest` asks for, when the plan calls it.
    var entry: WirePassEntry?

    /// The outcome of one call without its typed result: a stress run only keeps whether it succeeded.
    typealias Outcome = CallOutcome<Void>

    /// Reads the entry that `generateAddPaymentPassRequest` needs, when `methods` include it.
    /// - Throws: ``StressError`` when the extension offers no entry to ask for.
    static func prepare(methods: [String], runner: ExtensionRunner) async throws -> StressRequests {
        guard methods.contains(WireMethod.generateAddPaymentPassRequest) else { return StressRequests() }
        for listing in [WireMethod.passEntries, WireMethod.remotePassEntries] {
            let outcome = await runner.call(listing, params: NoParams(), resultType: PassEntriesResult.self,
                                            deadline: .seconds(30))
            if case .success(let result) = outcome.result, let entry = result.entries.first {
                return StressRequests(entry: entry)
            }
        }
        throw StressError("""
            generateAddPaymentPassRequest needs a pass entry to ask for, but \(runner.descriptor.executableName) \
            offered none in passEntries or remotePassEntries (has its app been opened in this state directory?)
            """)
    }

    /// Calls `method` on `runner` with its valid params.
    func call(_ method: String, on runner: ExtensionRunner) async -> Outcome {
        switch method {
        case WireMethod.status:
            return Self.erased(await runner.call(method, params: NoParams(), resultType: StatusResult.self))
        case WireMethod.passEntries, WireMethod.remotePassEntries:
            return Self.erased(await runner.call(method, params: NoParams(), resultType: PassEntriesResult.self))
        case WireMethod.generateAddPaymentPassRequest:
            guard let entry, let material = try? ProvisioningMaterial(forProcessWidePKI: entry) else {
                return Self.erased(await runner.call(method, params: NoParams(), resultType: JSONValue.self))
            }
            let params = material.requestParams(for: entry)
            return Self.erased(await runner.call(method, params: params, resultType: AddPaymentPassRequestResult?.self))
        default:
            return Self.erased(await runner.call(method, params: NoParams(), resultType: JSONValue.self))
        }
    }

    private static func erased<Result>(_ outcome: CallOutcome<Result>) -> Outcome {
        CallOutcome(method: outcome.method, result: outcome.result.map { _ in () },
                    launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                    callMilliseconds: outcome.callMilliseconds, totalMilliseconds: outcome.totalMilliseconds,
                    peakFootprintBytes: outcome.peakFootprintBytes, pid: outcome.pid, sandboxed: outcome.sandboxed,
                    unsandboxedReason: outcome.unsandboxedReason)
    }
}

/// A stress run that cannot start or go on, with a sentence saying why.
public struct StressError: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
