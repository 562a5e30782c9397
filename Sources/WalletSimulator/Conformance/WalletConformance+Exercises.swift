import Foundation
import WalletHostCore
import WalletWire

/// How a conformance run calls each of Wallet's methods, and the shape each result must have
/// (docs/PROTOCOL.md section 7).
extension WalletConformance {
    static let exercises: [MethodExercise] = [status, passEntries(WireMethod.passEntries),
                                              passEntries(WireMethod.remotePassEntries), generateRequest, authorize]

    private static let noParameters: @Sendable (ConformanceContext) -> MethodExercise.Parameters = { _ in .ready(.object([:])) }

    private static let status = MethodExercise(
        method: WireMethod.status, standalone: true, parameters: noParameters,
        judge: MethodExercise.decoding(StatusResult.self) { status in
            .valid(summary: "passEntriesAvailable \(status.passEntriesAvailable), "
                   + "remotePassEntriesAvailable \(status.remotePassEntriesAvailable), "
                   + "requiresAuthentication \(status.requiresAuthentication)")
        })

    private static func passEntries(_ method: String) -> MethodExercise {
        MethodExercise(method: method, standalone: true, parameters: noParameters,
                       judge: MethodExercise.decoding(PassEntriesResult.self) { result in
                           .valid(summary: describe(result.entries))
                       })
    }

    /// Called with the first entry `passEntries` gave (else `remotePassEntries`'s) and fresh
    /// certificates, nonce and signature, as Wallet does for the card the user picked.
    private static let generateRequest = MethodExercise(
        method: WireMethod.generateAddPaymentPassRequest, standalone: false,
        parameters: { context in
            for method in [WireMethod.passEntries, WireMethod.remotePassEntries] {
                guard let result = context.result(of: method),
                      let entry = try? result.value.decoded(as: PassEntriesResult.self).entries.first,
                      let params = try? JSONValue(encoding: ProvisioningMaterial().requestParams(for: entry)) else { continue }
                return .ready(params)
            }
            return .unavailable("there is no pass entry to make a request for: neither passEntries nor remotePassEntries "
                                + "gave an entry (see their result-shape checks)")
        },
        judge: MethodExercise.decoding(AddPaymentPassRequestResult?.self) { request in
            guard let request else { return .valid(summary: "null (the handler completed with nil)") }
            let fields: [(String, Data?)] = [("activationData", request.activationData),
                                             ("encryptedPassData", request.encryptedPassData),
                                             ("ephemeralPublicKey", request.ephemeralPublicKey),
                                             ("wrappedKey", request.wrappedKey)]
            let present = fields.compactMap { name, data in data.map { "\(name) \(HumanReadable.counted($0.count, "byte"))" } }
            return .valid(summary: present.isEmpty ? "an empty request" : present.joined(separator: ", "))
        })

    private static let authorize = MethodExercise(
        method: WireMethod.authorize, standalone: true, parameters: noParameters,
        judge: MethodExercise.decoding(AuthorizeResult.self) { result in
            guard [AuthorizeResult.authorized, AuthorizeResult.canceled].contains(result.result) else {
                return .invalid(problem: "result is \"\(result.result)\", neither \"authorized\" nor \"canceled\"")
            }
            return .valid(summary: result.result == AuthorizeResult.canceled
                ? "\"canceled\" (the scripted user chose Cancel)" : "\"\(result.result)\"")
        })

    /// `3 entries: card-1, card-2, card-3`.
    static func describe(_ entries: [WirePassEntry]) -> String {
        guard !entries.isEmpty else { return "no entries" }
        let names = entries.prefix(3).map(\.identifier).joined(separator: ", ") + (entries.count > 3 ? ", ..." : "")
        return "\(HumanReadable.counted(entries.count, "entry", plural: "entries")): \(names)"
    }
}
