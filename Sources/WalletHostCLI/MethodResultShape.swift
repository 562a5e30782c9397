import Foundation
import WalletHostCore
import WalletWire

/// Calls a method with the result type the protocol documents for it, so a result of the wrong
/// shape is reported as such, then hands the result back as plain JSON for printing.
enum MethodResultShape {
    static func call(_ runner: ExtensionRunner, method: String, params: JSONValue) async -> CallOutcome<JSONValue> {
        switch method {
        case WireMethod.status:
            return await call(runner, method, params, StatusResult.self)
        case WireMethod.passEntries, WireMethod.remotePassEntries:
            return await call(runner, method, params, PassEntriesResult.self)
        case WireMethod.generateAddPaymentPassRequest:
            return await call(runner, method, params, AddPaymentPassRequestResult?.self)
        case WireMethod.authorize:
            return await call(runner, method, params, AuthorizeResult.self)
        default:
            return await call(runner, method, params, JSONValue.self)
        }
    }

    private static func call<Result: Codable & Sendable>(_ runner: ExtensionRunner, _ method: String, _ params: JSONValue,
                                                         _ type: Result.Type) async -> CallOutcome<JSONValue> {
        let outcome = await runner.call(method, params: params, resultType: type)
        return CallOutcome(method: outcome.method, result: outcome.result.map(plainJSON),
                           launchMilliseconds: outcome.launchMilliseconds, launchedProcess: outcome.launchedProcess,
                           callMilliseconds: outcome.callMilliseconds,
                           totalMilliseconds: outcome.totalMilliseconds, peakFootprintBytes: outcome.peakFootprintBytes,
                           pid: outcome.pid)
    }

    private static func plainJSON(_ value: some Encodable) -> JSONValue {
        guard let data = try? JSONEncoder().encode(value),
              let plain = try? JSONDecoder().decode(JSONValue.self, from: data) else { return .null }
        return plain
    }
}
