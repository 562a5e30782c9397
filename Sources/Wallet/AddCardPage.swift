import Foundation
import WalletHostRuntime
import WalletReports
import WalletWire

/// The `add-card --html` page: Wallet's screens as the run went. The "From Apps on Your iPhone"
/// list with each absent issuer's reason, the authorization form as the UI extension described
/// it (secure values masked) with the answers, drawn as it was laid out when the extension sent
/// its screen, each offered entry's card art at Wallet's aspect
/// ratio with its title and suffix, and the result per card, then the timed steps.
public struct AddCardPage: Sendable {
    public var report: FlowReport
    public var offered: [WirePassEntry]
    public var exchanges: [RecordingUserAgent.Exchange]
    /// What the terminal printed about the user after the flow (how to answer when nobody
    /// could, a script's unused answers), shown on the page too.
    public var notes: [String] = []

    public init(report: FlowReport, offered: [WirePassEntry], exchanges: [RecordingUserAgent.Exchange]) {
        self.report = report
        self.offered = offered
        self.exchanges = exchanges
    }

    public func render() -> String {
        let device = report.device == .iphone ? "iPhone" : "Apple Watch"
        // A failure a step's row already gives in full is named by its step here: each long error once.
        let failedStep = report.steps.first { !$0.ok && $0.detail == report.failure }
        let verdict = report.succeeded ? "every selected card was added"
            : failedStep.map { "failed at \($0.step) (see Steps)" } ?? report.failure ?? "not every card was added"
        var page = HTMLPage(title: "wallet-host add-card: \(report.issuer ?? "no issuer")", subtitle: "\(device): \(verdict)")
        page.verdict = HTMLPage.Verdict(passed: report.succeeded, sentence: report.succeeded ? "every selected card was added" : verdict)
        page.section("Wallet: add a card", screens(device: device))
        let rows = [["step", "ok", "time", "detail"]] + report.steps.map {
            [$0.step, $0.ok ? "yes" : "no", $0.milliseconds.map(HumanReadable.milliseconds) ?? "", $0.detail]
        }
        page.section("Steps", HTMLPage.table(rows, rowClasses: report.steps.map { $0.ok ? nil : "fail" }))
        if !notes.isEmpty {
            page.section("Notes", "<pre class=\"notes\">" + notes.map(HTMLPage.escape).joined(separator: "\n") + "</pre>")
        }
        if !report.findings.isEmpty {
            page.section("Findings", "<ul>" + report.findings.map { "<li>\(HTMLPage.escape($0))</li>" }.joined() + "</ul>")
        }
        return page.render()
    }

    private func screens(device: String) -> String {
        var html = ""
        // 1. The list Wallet shows, and why each other issuer is absent.
        var list = "<div class=\"screen\" data-screen=\"issuers\"><h3>From Apps on Your \(device)</h3>"
        for issuer in report.discovery where issuer.listed {
            let picked = issuer.bundleIdentifier == report.issuer
            list += "<p\(picked ? " class=\"picked\" data-picked=\"true\"" : "")><b>\(HTMLPage.escape(issuer.name))</b>"
                + (picked ? " <span class=\"tag\">picked</span>" : "")
                + "<br><span class=\"muted\">status in \(issuer.milliseconds.map(HumanReadable.milliseconds) ?? "?")</span></p>"
        }
        // Issuers absent for the same reason share one line: the reason is long and often the same.
        var reasons: [(reason: String, names: [String])] = []
        for issuer in report.discovery where !issuer.listed {
            let reason = issuer.reason ?? "not listed"
            if let index = reasons.firstIndex(where: { $0.reason == reason }) {
                reasons[index].names.append(issuer.name)
            } else {
                reasons.append((reason, [issuer.name]))
            }
        }
        if !reasons.isEmpty {
            list += "<p class=\"muted\">Not listed:</p><ul>" + reasons.map {
                "<li>\(HTMLPage.escape(HumanReadable.list($0.names))): \(HTMLPage.escape($0.reason))</li>"
            }.joined() + "</ul>"
        }
        html += list + "</div>"
        // 2. Authorization, as the UI extension described it.
        for exchange in exchanges {
            switch exchange {
            case .prompt(let prompt, let answer):
                html += "<div class=\"screen\" data-screen=\"prompt\"><h3>\(HTMLPage.escape(prompt.title))</h3>"
                if let tree = prompt.screen {
                    let drawn = DrawnScreenHTML(tree: tree, values: answer?.values ?? [:],
                                                secureFields: Set(prompt.fields.filter(\.secure).map(\.name)), chosenAction: answer?.action)
                    html += drawn.render()
                }
                if let message = prompt.message { html += "<p>\(HTMLPage.escape(message))</p>" }
                for field in prompt.fields {
                    let value = answer?.values[field.name].map { field.secure ? String(repeating: "•", count: $0.count) : $0 } ?? ""
                    html += "<p><span class=\"muted\">\(HTMLPage.escape(field.label))</span><br><code>\(HTMLPage.escape(value))</code></p>"
                }
                html += "<p>" + prompt.actions.map { action in
                    action == answer?.action ? "<b>[\(HTMLPage.escape(action))]</b>" : HTMLPage.escape(action)
                }.joined(separator: " · ") + "</p>"
                html += (answer == nil ? "<p class=\"muted\" data-answer=\"none\">nobody answered (see Notes)</p>" : "") + "</div>"
            case .biometric(let request, let success):
                let outcome = success.map { $0 ? "matched" : "did not match" } ?? "no answer"
                html += "<div class=\"screen\" data-screen=\"biometric\"><h3>Face ID</h3><p>\(HTMLPage.escape(request.reason))</p>"
                    + "<p><b>\(outcome)</b></p></div>"
            }
        }
        // 3. The entries, card art at Wallet's aspect ratio (1536 x 969), and the result per card.
        if !offered.isEmpty {
            var cards = "<div class=\"screen\" data-screen=\"entries\"><h3>Add to \(device)</h3>"
            for entry in offered {
                let outcome = report.cards.first { $0.identifier == entry.identifier }
                let result = outcome.map { $0.added ? "added" : "not added: \($0.error ?? "failed")" }
                    ?? (report.entries.contains(entry.identifier) ? "not selected" : "not usable")
                let suffix = entry.addRequestConfiguration.primaryAccountSuffix.map { "•••• \($0)" } ?? ""
                cards += "<figure data-entry=\"\(HTMLPage.escape(entry.identifier))\"><img class=\"card\" alt=\"\(HTMLPage.escape(entry.title))\" "
                    + "src=\"data:image/png;base64,\(entry.art.png.base64EncodedString())\">"
                    + "<figcaption><b>\(HTMLPage.escape(entry.title))</b> \(HTMLPage.escape(suffix))<br>"
                    + "<span class=\"\(outcome?.added == true ? "" : "muted")\">\(HTMLPage.escape(result))</span>"
                    + (outcome?.verification.map { "<br><small data-payload=\"\($0.status.rawValue)\">payload: \(HTMLPage.escape($0.summary))</small>" } ?? "")
                    + "</figcaption></figure>"
            }
            html += cards + "</div>"
        }
        return html
    }
}
