import ConformanceEngine
import Foundation
import WalletHostRuntime
import WalletWire

/// How a conformance run calls each of Wallet's methods, and what each result's summary says
/// (docs/PROTOCOL.md section 7). Names and result types come from the method table,
/// ``WireMethods``; a test checks that every call of the table has an exercise here.
extension WalletConformance {
    static let exercises: [MethodExercise] = [status, passEntries(WireMethods.passEntries),
                                              passEntries(WireMethods.remotePassEntries), generateRequest, authorize]

    private static let noParameters: @Sendable (ConformanceContext) -> MethodExercise.Parameters = { _ in .ready(.object([:])) }

    private static let status = MethodExercise(WireMethods.status, standalone: true, parameters: noParameters) { status in
        .valid(summary: "passEntriesAvailable \(status.passEntriesAvailable), "
               + "remotePassEntriesAvailable \(status.remotePassEntriesAvailable), "
               + "requiresAuthentication \(status.requiresAuthentication)")
    }

    private static func passEntries(
        _ method: WireMethodDescriptor<NoParams, PassEntriesResult>
    ) -> MethodExercise {
        var exercise = MethodExercise(method, standalone: true, parameters: noParameters) { result in
            .valid(summary: describe(result.entries))
        }
        exercise.notCalledBecause = { context in notCalledBecause(method.name, context: context) }
        return exercise
    }

    /// Wallet asks for entries only when status offers them: `passEntries` when
    /// `passEntriesAvailable`, `remotePassEntries` when `remotePassEntriesAvailable`. A handler
    /// that leaves such a method to the base class, while its status never offers those
    /// entries, is never called for it.
    static func notCalledBecause(_ method: String, context: ConformanceContext) -> String? {
        guard let status = try? context.result(of: WireMethod.status)?.value(as: WireMethods.status) else { return nil }
        switch method {
        case WireMethod.passEntries where !status.passEntriesAvailable:
            return "status says passEntriesAvailable false, so Wallet never asks for passEntries"
        case WireMethod.remotePassEntries where !status.remotePassEntriesAvailable:
            return "status says remotePassEntriesAvailable false, so Wallet never asks for remotePassEntries"
        default:
            return nil
        }
    }

    /// Called with the first entry `passEntries` gave (else `remotePassEntries`'s) and fresh
    /// certificates, nonce and signature, as Wallet does for the card the user picked.
    private static let generateRequest = MethodExercise(
        WireMethods.generateAddPaymentPassRequest, standalone: false,
        parameters: { context in
            for method in [WireMethods.passEntries, WireMethods.remotePassEntries] {
                guard let entry = try? context.result(of: method.name)?.value(as: method).entries.first,
                      let material = try? ProvisioningMaterial(forProcessWidePKI: entry),
                      let params = try? JSONValue(encoding: material.requestParams(for: entry)) else { continue }
                return .ready(params)
            }
            return .unavailable("there is no pass entry to make a request for: neither passEntries nor remotePassEntries "
                                + "gave an entry (see their result-shape checks)")
        },
        summary: { request in
            guard let request else { return .valid(summary: "null (the handler completed with nil)") }
            let fields: [(String, Data?)] = [("activationData", request.activationData),
                                             ("encryptedPassData", request.encryptedPassData),
                                             ("ephemeralPublicKey", request.ephemeralPublicKey),
                                             ("wrappedKey", request.wrappedKey)]
            let present = fields.compactMap { name, data in data.map { "\(name) \(HumanReadable.counted($0.count, "byte"))" } }
            return .valid(summary: present.isEmpty ? "an empty request" : present.joined(separator: ", "))
        })

    private static let authorize = MethodExercise(WireMethods.authorize, standalone: true, parameters: noParameters) { result in
        guard [AuthorizeResult.authorized, AuthorizeResult.canceled].contains(result.result) else {
            return .invalid(problem: "result is \"\(result.result)\", neither \"authorized\" nor \"canceled\"")
        }
        return .valid(summary: result.result == AuthorizeResult.canceled
            ? "\"canceled\" (the scripted user chose Cancel or left the sheet)" : "\"\(result.result)\"")
    }

    /// `3 entries: card-1, card-2, card-3`.
    static func describe(_ entries: [WirePassEntry]) -> String {
        guard !entries.isEmpty else { return "no entries" }
        let names = entries.prefix(3).map(\.identifier).joined(separator: ", ") + (entries.count > 3 ? ", ..." : "")
        return "\(HumanReadable.counted(entries.count, "entry", plural: "entries")): \(names)"
    }
}
