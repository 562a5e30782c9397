import ConformanceEngine
import Foundation
import Wallet
import WalletDaemon

/// `extension.conform`: `wallet-host conform --state DIR` on the daemon serving DIR. Each
/// extension's report comes as a `conform.report` notification as soon as its checks ran; the
/// answer has what `conform` prints after them, so the command prints what it does in process.
enum DaemonConformMethod {
    struct Params: Codable, Sendable {
        /// `.appex` paths (the command expands an `.app` into its extensions first).
        var appexes: [String]
        /// Also answer the JUnit XML.
        var junit: Bool?
    }

    struct Answer: Codable, Sendable {
        var passed: Bool
        var extensions: Int
        /// `name (check ids)` of each extension with a failed check.
        var failed: [String]
        /// The reports as `conform --json` prints them.
        var json: String
        var junit: String?
    }

    static func register(on server: DaemonServer) {
        let pool = server.pool
        server.register("extension.conform") { call in
            let params = try call.params(Params.self)
            let suite = WalletConformance.suite(state: pool.device.state, options: ConformanceOptions(configuration: pool.configuration))
            let started = Date()
            var reports: [ConformanceReport] = []
            for appex in params.appexes {
                let report = await suite.run(appex: URL(fileURLWithPath: appex))
                call.client.notify("conform.report", ["text": report.render()])
                reports.append(report)
            }
            return Answer(passed: reports.allSatisfy(\.passed), extensions: reports.count,
                          failed: reports.filter { !$0.passed }.map(ConformCommand.failureName),
                          json: try reports.renderJSON(),
                          junit: params.junit == true ? reports.renderJUnit(timestamp: started) : nil)
        }
    }
}
