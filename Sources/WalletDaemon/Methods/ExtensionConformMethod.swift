import ConformanceEngine
import Foundation
import Wallet
import WalletDaemonClient

/// `extension.conform`: `wallet-host conform --state DIR` on the daemon serving DIR. Each
/// extension's report comes as `conform.report` notifications, a line each as its checks run
/// (an empty line ends an extension's report); the
/// answer has what `conform` prints after them, so the command prints what it does in process.
enum ExtensionConformMethod {
    static func register(on server: DaemonServer) {
        let pool = server.pool
        server.register(DaemonMethods.extensionConform.name) { call in
            let params = try call.params(DaemonAPI.ConformParams.self)
            let suite = WalletConformance.suite(state: pool.device.state, options: ConformanceOptions(configuration: pool.configuration))
            let started = Date()
            var reports: [ConformanceReport] = []
            for appex in params.appexes {
                let client = call.client
                let report = await suite.run(appex: URL(fileURLWithPath: appex), onLine: { line in
                    client.notify(DaemonMethods.conformReport.name, ["text": line])
                })
                client.notify(DaemonMethods.conformReport.name, ["text": ""])
                reports.append(report)
            }
            return DaemonAPI.ConformAnswer(passed: reports.allSatisfy(\.passed), extensions: reports.count,
                          failed: reports.filter { !$0.passed }.map(\.failureName),
                          json: try reports.renderJSON(),
                          junit: params.junit == true ? reports.renderJUnit(timestamp: started) : nil)
        }
    }
}
