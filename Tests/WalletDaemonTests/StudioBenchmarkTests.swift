import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// Rounds of the studio benchmark: `WALLET_HOST_STUDIO_BENCH`, 0 (skipped) when unset.
let studioBenchRounds = Int(ProcessInfo.processInfo.environment["WALLET_HOST_STUDIO_BENCH"] ?? "") ?? 0

/// The studio's figures for `scripts/bench-daemon` (run only when `WALLET_HOST_STUDIO_BENCH`
/// gives the number of rounds): page load; from answering the sample's login screen (a wrong
/// password) to the next screen the extension shows being drawn by the page, beside the same
/// for a socket client; and from asking `extension.call` to its `result` event reaching the
/// page, beside a socket client's subscription. Medians, in milliseconds, printed.
@Suite(.serialized, .timeLimit(.minutes(10)),
       .enabled(if: Chromium.path != nil && studioBenchRounds > 0, "set WALLET_HOST_STUDIO_BENCH=N (scripts/bench-daemon does)"))
struct StudioBenchmarkTests {
    static var rounds: Int { studioBenchRounds }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return .nan }
        return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
    }

    static func report(_ name: String, _ values: [Double], beside baseline: (String, [Double])? = nil) {
        var line = "studio bench: \(name): median \(String(format: "%.2f", median(values))) ms (n=\(values.count))"
        if let baseline {
            line += "; \(baseline.0): median \(String(format: "%.2f", median(baseline.1))) ms (n=\(baseline.1.count))"
        }
        print(line)
    }

    @Test func pageLoadScreenDrawnAndEventLatency() async throws {
        let daemon = try await DaemonProcess.withStudio(apps: [ExampleBundles.sampleIssuerApp, ExampleBundles.testHelperApp])
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        let url = try #require(try await daemon.studioURL().string)
        let browser = try ChromiumDevTools(executable: try #require(Chromium.path))
        defer { _ = browser }
        let page = try await browser.openPage()
        try await page.resize(width: 1280, height: 920)

        var loads: [Double] = []
        var inPage: [Double] = []
        var streams: [Double] = []
        for _ in 0..<Self.rounds {
            let start = ContinuousClock.now
            try await page.navigate(url)
            try await page.waitFor("body[data-ready]")
            loads.append((ContinuousClock.now - start).benchMilliseconds)
            let marks = try await page.evaluate("[window.__readyAt, window.__connectedAt - window.__startAt]") as? [Double]
            inPage.append(marks?.first ?? .nan)
            streams.append(marks?.last ?? .nan)
        }
        Self.report("page load (navigate to ready: page, event stream, subscribe, apps, passes, as the driver sees it)", loads)
        Self.report("page load (in the page: navigation start to ready)", inPage, beside: ("of which the event stream's opening", streams))

        var pageScreens: [Double] = []
        for _ in 0..<max(1, Self.rounds / 2) {
            try await page.tap("#add-card")
            try await page.tap("[data-issuer]")
            for _ in 1...2 {
                try await page.tap("[data-screen=extension] [data-action='Log In']")
                // The next screen: drawn after this answer (the busy screen comes between).
                let elapsed = try await page.evaluate("""
                    new Promise((resolve) => {
                      const check = () => { if (window.__drawnAt > window.__answeredAt) { observer.disconnect(); resolve(window.__drawnAt - window.__answeredAt); } };
                      const observer = new MutationObserver(check);
                      observer.observe(document.getElementById("screen"), { childList: true, subtree: true });
                      check();
                    })
                    """) as? Double
                pageScreens.append(try #require(elapsed))
            }
            try await page.tap("[data-screen=extension] [data-action=Cancel]")
            try await page.waitFor("[data-screen=outcome], [data-screen=failed]", timeout: .seconds(60))
            try await page.tap("[data-action=done]")
        }
        let socketScreens = try await socketScreenTimes(daemon, flows: max(1, Self.rounds / 2))
        Self.report("answer to the next screen drawn, page", pageScreens, beside: ("socket client", socketScreens))

        let appex = daemon.apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        var pageEvents: [Double] = []
        for _ in 0..<Self.rounds {
            let elapsed = try await page.evaluate("""
                new Promise((resolve) => {
                  window.__onEvent = (event) => { if (event.kind === "result" && event.method === "status") {
                    window.__onEvent = null; resolve(performance.now() - start); } };
                  const start = performance.now();
                  Studio.rpc("extension.call", { appex: \(ChromiumPage.quoted(appex)), method: "status" });
                })
                """) as? Double
            pageEvents.append(try #require(elapsed))
        }
        let socketEvents = try await socketEventTimes(daemon, appex: appex, rounds: Self.rounds)
        Self.report("extension.call to its result event, page (SSE)", pageEvents, beside: ("socket subscriber", socketEvents))
        await browser.close()
    }

    /// From answering the login screen (wrong password) to the next ui.prompt, for a socket client.
    func socketScreenTimes(_ daemon: DaemonProcess, flows: Int) async throws -> [Double] {
        var times: [Double] = []
        for _ in 0..<flows {
            let client = try DaemonClient(connectingTo: daemon.socketPath)
            var answeredAt: ContinuousClock.Instant?
            var prompts = 0
            _ = try await client.call("wallet.addCard", JSONValue.object(["userAgent": .bool(true)]), onRequest: { request in
                if let answeredAt { times.append((ContinuousClock.now - answeredAt).benchMilliseconds) }
                prompts += 1
                defer { answeredAt = ContinuousClock.now }
                let action = prompts >= 3 ? "Cancel" : "Log In"
                return JSONValue.object(["action": .string(action), "values": .object(["username": .string("x"), "password": .string("y")])])
            })
        }
        return times
    }

    /// From sending extension.call to its result event, for a subscribed socket client.
    func socketEventTimes(_ daemon: DaemonProcess, appex: String, rounds: Int) async throws -> [Double] {
        let client = try DaemonClient(connectingTo: daemon.socketPath)
        client.setReceiveTimeout(.seconds(20))
        try client.send(WireCodec().request(id: .number(1), method: "events.subscribe", params: JSONValue.object(["kinds": .array([.string("result")])])))
        while let message = try client.readMessage(), message.id == nil {}
        var times: [Double] = []
        for round in 0..<rounds {
            let start = ContinuousClock.now
            try client.send(WireCodec().request(id: .number(100 + round), method: "extension.call",
                                                params: JSONValue.object(["appex": .string(appex), "method": .string("status")])))
            // Both the event and the call's own answer, in whichever order they come.
            var seenEvent = false
            var seenAnswer = false
            while !(seenEvent && seenAnswer), let message = try client.readMessage() {
                if message.id != nil {
                    seenAnswer = true
                } else if !seenEvent, message.method == "events.event", message.params?["method"] == .string("status") {
                    times.append((ContinuousClock.now - start).benchMilliseconds)
                    seenEvent = true
                }
            }
        }
        return times
    }
}

extension Duration {
    var benchMilliseconds: Double { Double(components.seconds) * 1000 + Double(components.attoseconds) / 1e15 }
}
