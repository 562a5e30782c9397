import Foundation
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

extension AddCardFlow {
    /// Step 3: the UI extension's `authorize`, answered by the user agent. False ends the flow.
    func authorize(_ app: AppBundle, runners: any IssuerRunnerSource, report: inout FlowReport) async -> Bool {
        let runner: ExtensionRunner?
        do {
            runner = try await runners.runner(for: app, role: .ui)
        } catch {
            return fail("authorization", "\(error)", report: &report)
        }
        guard let runner else {
            return fail("authorization", "status requires authentication but \(app.name) has no UI extension "
                        + "(\(WalletExtensionPoint.authorization)): Wallet could not continue", report: &report)
        }
        transcript("Authorization required: running \(runner.descriptor.executableName).")
        let outcome = await runner.call(WireMethod.authorize, params: NoParams(), resultType: AuthorizeResult.self)
        switch outcome.result {
        case .failure(let error):
            return fail("authorization", "authorize failed: \(error.message)", milliseconds: outcome.totalMilliseconds,
                        report: &report)
        case .success(let result):
            report.authorization = result.result
            guard result.result == AuthorizeResult.authorized else {
                return fail("authorization", "the user did not authorize (\(result.result)): the flow ends",
                            milliseconds: outcome.totalMilliseconds, report: &report)
            }
            step("authorization", ok: true, milliseconds: outcome.totalMilliseconds, "authorized", report: &report)
            return true
        }
    }

    /// Step 4: the entries for the chosen device, validated. Nil ends the flow.
    func fetchEntries(_ app: AppBundle, device kind: DeviceKind, runners: any IssuerRunnerSource,
                      report: inout FlowReport) async -> [WirePassEntry]? {
        let method = kind == .iphone ? WireMethod.passEntries : WireMethod.remotePassEntries
        guard let runner = try? await runners.runner(for: app, role: .nonUI) else {
            _ = fail(method, "the non-UI extension is gone", report: &report)
            return nil
        }
        let outcome = await runner.call(method, params: NoParams(), resultType: PassEntriesResult.self)
        let entries: [WirePassEntry]
        switch outcome.result {
        case .failure(let error):
            _ = fail(method, "\(method) failed: \(error.message)", milliseconds: outcome.totalMilliseconds, report: &report)
            return nil
        case .success(let result):
            entries = result.entries
        }
        offeredEntries?(entries)
        let library: [PassRecord]
        do {
            library = try device.passes()
        } catch {
            _ = fail(method, "\(error)", milliseconds: outcome.totalMilliseconds, report: &report)
            return nil
        }
        let validation = PassEntryValidator().validate(entries, for: kind, library: library)
        report.findings += validation.findings.map(\.description)
        for finding in validation.findings { transcript("  ! \(finding)") }
        report.entries = validation.usable.map(\.identifier)
        step(method, ok: !validation.usable.isEmpty, milliseconds: outcome.totalMilliseconds,
             "\(entries.count) entries, \(validation.usable.count) usable: "
                + validation.usable.map { "\($0.title) [\($0.identifier)]" }.joined(separator: ", "), report: &report)
        guard !validation.usable.isEmpty else {
            report.failure = "\(method) offered no usable entry"
            return nil
        }
        return validation.usable
    }

    /// The user's selection among the usable entries. Nil ends the flow.
    func select(_ entries: [WirePassEntry], options: AddCardOptions, report: inout FlowReport) -> [WirePassEntry]? {
        let selection = options.selection ?? .all
        switch selection {
        case .all:
            return entries
        case .identifiers(let identifiers):
            let unknown = identifiers.filter { id in !entries.contains { $0.identifier == id } }
            guard unknown.isEmpty else {
                report.failure = "selected entries not offered (or not usable): \(unknown.joined(separator: ", "))"
                transcript("✘ \(report.failure!)")
                return nil
            }
            return identifiers.compactMap { id in entries.first { $0.identifier == id } }
        }
    }

    /// Steps 5-6 for one card: fresh certificates, nonce and signature; the request; validation
    /// and, for ECC_V2, decryption of its payload; the pass added to the device's library.
    /// - Parameter issuedNonces: The nonces sent for earlier cards of this run (one coming back
    ///   is named as replayed); this card's is appended.
    func provision(_ entry: WirePassEntry, app: AppBundle, device kind: DeviceKind, runners: any IssuerRunnerSource,
                   issuedNonces: inout [Data], report: inout FlowReport) async -> CardOutcome {
        var outcome = CardOutcome(identifier: entry.identifier, title: entry.title, added: false)
        guard let runner = try? await runners.runner(for: app, role: .nonUI) else {
            outcome.error = "the non-UI extension is gone"
            return outcome
        }
        // A fresh certificate chain, nonce and signature for every card, from the device's PKI.
        let pki: DevicePKI
        let params: GenerateAddPaymentPassRequestParams
        do {
            let scheme = ProvisioningMaterial.scheme(of: entry)
            pki = try DevicePKI.load(from: device.state, scheme: scheme)
            params = try ProvisioningMaterial(issuedBy: pki, scheme: scheme).requestParams(for: entry)
        } catch {
            outcome.error = "cannot make the certificate chain and nonce: \(error)"
            transcript("  ✘ \(entry.title): \(outcome.error!)")
            return outcome
        }
        let earlierNonces = issuedNonces
        issuedNonces.append(params.nonce)
        let call = await runner.call(WireMethod.generateAddPaymentPassRequest, params: params,
                                     resultType: AddPaymentPassRequestResult?.self)
        outcome.milliseconds = call.totalMilliseconds
        switch call.result {
        case .failure(let error):
            outcome.error = "generateAddPaymentPassRequest failed: \(error.message)"
        case .success(let request):
            var findings = AddPaymentPassRequestValidator().validate(request, for: entry)
            if let request, !findings.containsErrors {
                let verification = PassDataVerifier.verify(request, params: params, pki: pki, earlierNonces: earlierNonces)
                outcome.verification = verification
                findings += verification.findings
            }
            report.findings += findings.map(\.description)
            if !findings.containsErrors {
                let configuration = entry.addRequestConfiguration
                let pass = PassRecord(primaryAccountIdentifier: configuration.primaryAccountIdentifier ?? entry.identifier,
                                      primaryAccountNumberSuffix: configuration.primaryAccountSuffix ?? "",
                                      device: kind, issuer: app.bundleIdentifier, team: app.team)
                do {
                    try device.addPass(pass)
                    outcome.added = true
                } catch {
                    outcome.error = "cannot add the pass: \(error)"
                }
            } else {
                outcome.error = "invalid request: " + findings.filter(\.isError).map { "\($0.field): \($0.problem)" }
                    .joined(separator: "; ")
            }
        }
        let timing = HumanReadable.milliseconds(call.totalMilliseconds)
        if outcome.added {
            transcript("  ✔ \(entry.title) added to \(kind.deviceName) (request \(timing))")
        } else {
            transcript("  ✘ \(entry.title): \(outcome.error ?? "not added")")
        }
        if let verification = outcome.verification { transcript("    payload: \(verification.summary)") }
        report.steps.append(FlowStep(step: "generateAddPaymentPassRequest", ok: outcome.added, milliseconds: call.totalMilliseconds,
                                     detail: outcome.added ? "\(entry.identifier) added" : (outcome.error ?? "")))
        return outcome
    }

    private func step(_ name: String, ok: Bool, milliseconds: Double?, _ detail: String, report: inout FlowReport) {
        report.steps.append(FlowStep(step: name, ok: ok, milliseconds: milliseconds, detail: detail))
        let timing = milliseconds.map { " (\(HumanReadable.milliseconds($0)))" } ?? ""
        transcript("\(ok ? "✔" : "✘") \(name)\(timing): \(detail)")
    }

    private func fail(_ name: String, _ message: String, milliseconds: Double? = nil, report: inout FlowReport) -> Bool {
        report.failure = message
        step(name, ok: false, milliseconds: milliseconds, message, report: &report)
        return false
    }
}
