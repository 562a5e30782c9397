import ConformanceEngine
import Foundation
import WalletHostRuntime
import WalletWire

/// Wallet's own checks: `entries-valid`, `request-valid` and `instance-state`.
extension WalletConformance {
    /// The entries of the shape checks, validated as Wallet does (``PassEntryValidator``).
    static func entriesValid(device: SimulatedDevice) -> ConformanceCheckDefinition {
        ConformanceCheckDefinition(id: "entries-valid",
                                   title: "Pass entries pass Wallet's checks (unique identifiers, titles, 1536 x 969 art, configuration)") {
            context in
            let library: [PassRecord]
            var libraryNote: String?
            do {
                library = try device.passes()
            } catch {
                library = []
                libraryNote = "not checked against the pass library, which could not be read: \(error)"
            }
            var parts: [String] = []
            var missing: [String] = []
            var findings: [EntryFinding] = []
            var total = 0
            for (method, kind) in [(WireMethod.passEntries, DeviceKind.iphone), (WireMethod.remotePassEntries, .watch)]
            where context.implements(method) {
                guard let entries = try? context.result(of: method)?.value.decoded(as: PassEntriesResult.self).entries else {
                    missing.append(method)
                    continue
                }
                let validation = PassEntryValidator().validate(entries, for: kind, library: library)
                let errors = validation.findings.count { $0.isError }
                let warnings = validation.findings.count - errors
                total += entries.count
                findings += validation.findings
                parts.append("\(method) (\(kind.deviceName)): \(HumanReadable.counted(entries.count, "entry", plural: "entries")), "
                             + "\(HumanReadable.counted(errors, "error")), \(HumanReadable.counted(warnings, "warning"))")
            }
            guard !parts.isEmpty else {
                return .skipped("skipped: no entries to validate: \(HumanReadable.list(missing)) gave no result of the "
                                + "documented shape (see \(HumanReadable.list(missing.map { "result-shape-\($0)" })))")
            }
            guard total > 0 else {
                return .skipped("skipped: \(parts.joined(separator: "; ")): no entries were offered, so there is nothing to validate")
            }
            var evidence = parts.joined(separator: "; ")
            if let libraryNote { evidence += "; \(libraryNote)" }
            if !missing.isEmpty { evidence += "; \(HumanReadable.list(missing)) not validated (no result of the documented shape)" }
            if let error = findings.first(where: \.isError) {
                return .failed(evidence + "; the first error: \(error.conformanceLabel): \(error.field): \(error.problem)")
            }
            if let warning = findings.first {
                evidence += "; the first warning: \(warning.conformanceLabel): \(warning.field): \(warning.problem)"
            }
            return .passed(evidence)
        }
    }

    /// The request of the shape check, validated as Wallet does (``AddPaymentPassRequestValidator``).
    static let requestValid = ConformanceCheckDefinition(
        id: "request-valid",
        title: "The add-payment-pass request passes Wallet's checks (pass data, activation data, the scheme's key; ECC_V2 decrypts and its payload checks out)"
    ) { context in
        let method = WireMethod.generateAddPaymentPassRequest
        guard context.implements(method) else {
            return .skipped("skipped: \(context.executableName) does not implement \(method)")
        }
        let unavailable = ConformanceVerdict.skipped("skipped: \(method) gave no result of the documented shape "
                                                     + "(see result-shape-\(method))")
        guard let result = context.result(of: method),
              let params = try? result.params.decoded(as: GenerateAddPaymentPassRequestParams.self) else { return unavailable }
        // `null` is a valid shape (the handler completed with nil); the validator judges it.
        let request: AddPaymentPassRequestResult?
        do {
            request = try result.value.decoded(as: AddPaymentPassRequestResult?.self)
        } catch {
            return unavailable
        }
        let scheme = params.configuration.encryptionScheme
        let findings = AddPaymentPassRequestValidator().validate(request, encryptionScheme: scheme, entryIdentifier: params.identifier)
        let subject = "the request for \(params.identifier) (\(scheme))"
        let errors = findings.filter(\.isError)
        if !errors.isEmpty {
            return .failed("\(subject): " + errors.map { "\($0.field): \($0.problem)" }.joined(separator: "; "))
        }
        let key = scheme == "RSA_V2" ? "wrappedKey" : "a \(AddPaymentPassRequestValidator.uncompressedPointLength)-byte uncompressed ephemeralPublicKey"
        var evidence = "\(subject), made with a fresh certificate chain, nonce and signature, has encryptedPassData, "
            + "activationData and \(key)"
        var warnings = findings
        if let request, let pki = try? DevicePKI.processWide() {
            // ECC_V2: the payload decrypted and checked as add-card does (docs/PROVISIONING.md).
            let verification = PassDataVerifier.verify(request, params: params, pki: pki)
            if let error = verification.findings.first(where: \.isError) {
                return .failed("\(subject): \(verification.summary); \(error.field): \(error.problem)")
            }
            evidence += "; payload \(verification.summary)"
            warnings += verification.findings
        }
        if let warning = warnings.first { evidence += "; warning: \(warning.field): \(warning.problem)" }
        return .passed(evidence)
    }

    /// Two identical calls on one warm process give the same cards: nothing a call leaves in its
    /// handler instance reaches the next (the SDK builds a fresh instance per call; a handler
    /// that keeps per-call state around shows up as entries that change or pile up).
    ///
    /// Card detail values may differ: they are labeled values shown with the card and may show
    /// live data (a balance, a counter). Everything else must be identical.
    static let instanceState = ConformanceCheckDefinition(
        id: "instance-state", title: "Nothing is carried between calls: the same call twice on one process gives the same cards"
    ) { context in
        guard let method = [WireMethod.passEntries, WireMethod.remotePassEntries].first(where: context.implements) else {
            return .skipped("skipped: \(context.executableName) implements neither passEntries nor remotePassEntries")
        }
        guard context.result(of: method) != nil else {
            return .skipped("skipped: \(method) gave no result of the documented shape (see result-shape-\(method))")
        }
        let (runner, _) = context.makeRunner()
        let patience = context.patience(for: method)
        let first = await context.call(runner, method, params: .object([:]), deadline: patience)
        let second = await context.call(runner, method, params: .object([:]), deadline: patience)
        await runner.stop(reason: "conformance: instance state checked")
        let firstEntries: [WirePassEntry]
        let secondEntries: [WirePassEntry]
        do {
            firstEntries = try first.result.get().decoded(as: PassEntriesResult.self).entries
            secondEntries = try second.result.get().decoded(as: PassEntriesResult.self).entries
        } catch {
            return .failed("\(method) did not answer both calls with entries: \(error)")
        }
        guard first.pid == second.pid else {
            return .failed("the process did not survive the first \(method) call, so the second ran on a new one")
        }
        let count = HumanReadable.counted(firstEntries.count, "entry", plural: "entries")
        if let difference = EntryComparison.difference(firstEntries, secondEntries) {
            return .failed("two \(method) calls on one process differ: \(difference)")
        }
        guard !firstEntries.isEmpty else {
            return .skipped("skipped: \(method) offered no entries, so there is nothing to compare")
        }
        var evidence = "two \(method) calls on one process gave the same \(count) (identifiers, titles, art, configuration)"
        if let changed = EntryComparison.changedDetails(firstEntries, secondEntries) {
            evidence += "; card detail values changed (\(changed)), which is allowed: they may show live data"
        }
        return .passed(evidence)
    }
}

/// Compares two lists of pass entries field by field, card detail values aside.
enum EntryComparison {
    /// The first difference between the lists as a phrase, or nil when they agree (card detail
    /// values aside).
    static func difference(_ first: [WirePassEntry], _ second: [WirePassEntry]) -> String? {
        guard first.count == second.count else {
            return "the first gave \(WalletConformance.describe(first)), the second \(WalletConformance.describe(second))"
        }
        // Entries are matched by identifier, not position: an issuer that builds them from a
        // dictionary lists the same cards in another order each time, which Wallet accepts.
        let firstIdentifiers = first.map(\.identifier).sorted()
        let secondIdentifiers = second.map(\.identifier).sorted()
        if firstIdentifiers != secondIdentifiers {
            return "identifiers \(firstIdentifiers) the first time, \(secondIdentifiers) the second"
        }
        for (before, after) in pairedByIdentifier(first, second) {
            let label = "entry \(before.identifier)"
            if before.title != after.title { return "\(label): title \"\(before.title)\" the first time, \"\(after.title)\" the second" }
            if before.art != after.art {
                return "\(label): art of \(before.art.png.count) bytes the first time, \(after.art.png.count) bytes the second"
            }
            let (one, two) = (before.addRequestConfiguration, after.addRequestConfiguration)
            if one.cardDetails.map(\.label) != two.cardDetails.map(\.label) {
                return "\(label): card detail labels \(one.cardDetails.map(\.label)) the first time, \(two.cardDetails.map(\.label)) the second"
            }
            if withoutDetailValues(one) != withoutDetailValues(two) {
                let fields = changedFields(one, two)
                return "\(label): addRequestConfiguration differs (\(fields.joined(separator: ", ")))"
            }
        }
        return nil
    }

    /// Card detail values that changed, as `label 2 -> 3`, or nil when none did.
    static func changedDetails(_ first: [WirePassEntry], _ second: [WirePassEntry]) -> String? {
        var changes: [String] = []
        for (before, after) in pairedByIdentifier(first, second) {
            for (old, new) in zip(before.addRequestConfiguration.cardDetails, after.addRequestConfiguration.cardDetails)
            where old.value != new.value {
                changes.append("\(old.label) \(old.value) -> \(new.value)")
            }
        }
        guard !changes.isEmpty else { return nil }
        return changes.prefix(3).joined(separator: ", ") + (changes.count > 3 ? ", ..." : "")
    }

    /// Each entry of `first` with the entry of `second` that has its identifier (the n-th of a
    /// repeated identifier with the n-th of the same in `second`).
    static func pairedByIdentifier(_ first: [WirePassEntry], _ second: [WirePassEntry]) -> [(WirePassEntry, WirePassEntry)] {
        var unmatched = Dictionary(grouping: second, by: \.identifier)
        return first.compactMap { entry in
            guard var candidates = unmatched[entry.identifier], !candidates.isEmpty else { return nil }
            let partner = candidates.removeFirst()
            unmatched[entry.identifier] = candidates
            return (entry, partner)
        }
    }

    private static func withoutDetailValues(_ configuration: WireAddRequestConfiguration) -> WireAddRequestConfiguration {
        var copy = configuration
        copy.cardDetails = copy.cardDetails.map { WireLabeledValue(label: $0.label, value: "") }
        return copy
    }

    private static func changedFields(_ one: WireAddRequestConfiguration, _ two: WireAddRequestConfiguration) -> [String] {
        var fields: [String] = []
        if one.encryptionScheme != two.encryptionScheme { fields.append("encryptionScheme") }
        if one.cardholderName != two.cardholderName { fields.append("cardholderName") }
        if one.primaryAccountSuffix != two.primaryAccountSuffix { fields.append("primaryAccountSuffix") }
        if one.primaryAccountIdentifier != two.primaryAccountIdentifier { fields.append("primaryAccountIdentifier") }
        if one.paymentNetwork != two.paymentNetwork { fields.append("paymentNetwork") }
        if one.localizedDescription != two.localizedDescription { fields.append("localizedDescription") }
        if one.style != two.style { fields.append("style") }
        if one.productIdentifiers != two.productIdentifiers { fields.append("productIdentifiers") }
        if one.requiresFelicaSecureElement != two.requiresFelicaSecureElement { fields.append("requiresFelicaSecureElement") }
        return fields.isEmpty ? ["a field"] : fields
    }
}

extension EntryFinding {
    /// The entry as findings name it: its identifier, else its position.
    var conformanceLabel: String {
        if !entryIdentifier.isEmpty { return entryIdentifier }
        return entryIndex.map { "entry \($0)" } ?? "request"
    }
}
