import Foundation
import Testing
import WalletDaemon
import WalletTestSupport
import WalletWire

/// The studio page in a real Chromium (headless, driven over the DevTools pipe): a person's
/// taps and typing on the drawn screens add the sample issuer's cards, and an extension's
/// markup shows as text. Each screen is kept as a PNG under `.build/studio-screenshots/`.
@Suite(.serialized, .timeLimit(.minutes(3)), .enabled(if: Chromium.path != nil, "chromium is not installed (scripts/install-dependencies installs it)"))
struct StudioPageTests {
    /// Where the screenshots go (named in the test output).
    static let screenshots: URL = {
        let directory = BuildProducts.repositoryRoot.appendingPathComponent(".build/studio-screenshots")
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }()

    /// Runs `body` with the daemon's page open in a browser at a desktop size, ready; the
    /// browser is closed after, whatever happens.
    static func withStudio(_ daemon: DaemonProcess, _ body: (ChromiumPage) async throws -> Void) async throws {
        let browser = try ChromiumDevTools(executable: try #require(Chromium.path))
        do {
            let page = try await browser.openPage()
            try await page.resize(width: 1280, height: 920)
            let url = try await daemon.studioURL()
            try await page.navigate(try #require(url.string))
            try await page.waitFor("body[data-ready]")
            try await body(page)
        } catch {
            await browser.close()
            throw error
        }
        await browser.close()
    }

    static func keep(_ page: ChromiumPage, _ name: String) async throws {
        let file = screenshots.appendingPathComponent(name + ".png")
        try await page.screenshot(to: file)
        print("studio screenshot: \(file.path)")
    }

    @Test func signingInOnTheDrawnScreenAddsTheSampleIssuersCards() async throws {
        let daemon = try await DaemonProcess.withStudio(apps: [ExampleBundles.sampleIssuerApp])
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        try await Self.withStudio(daemon) { page in
            try await Self.keep(page, "1-wallet")

            try await page.tap("#add-card")
            try await page.waitFor("[data-issuer]")
            let timing = try await page.evaluate("document.querySelector('[data-issuer] .detail').textContent") as? String
            #expect(timing?.hasSuffix("ms of 100 ms") == true, "each issuer's status time against the deadline: \(timing ?? "nil")")
            try await Self.keep(page, "2-issuers")

            try await page.tap("[data-issuer]")
            try await page.waitFor("[data-screen=extension] [data-field=password]")
            #expect(try await page.evaluate("document.querySelector('[data-field=password]').type") as? String == "password")
            try await page.type("jappleseed", into: "[data-field=username]")
            try await page.type("wallet-demo", into: "[data-field=password]")
            // The process panel refreshes every second: the shot shows the UI extension too.
            try await page.waitFor("#processes tr[data-process='com.example.sampleissuer.WUIExt']")
            try await Self.keep(page, "3-sign-in")
            try await page.tap("[data-action='Log In']")

            try await page.waitFor("[data-screen=outcome]", timeout: .seconds(60))
            try await Self.keep(page, "4-cards")
            let added = try await page.evaluate("document.querySelectorAll('[data-card] .ok').length") as? Int
            #expect(added == 3, "three cards added, each with its verification")
            let passes = try await daemon.call("passes.list")
            guard case .array(let list) = passes else {
                Issue.record("passes.list: \(passes)")
                return
            }
            #expect(list.count == 3, "the device's Wallet has the cards: \(passes)")

            try await page.tap("[data-action=done]")
            try await page.waitFor("[data-pass]")
            #expect(try await page.evaluate("document.querySelectorAll('[data-pass]').length") as? Int == 3)
            try await Self.keep(page, "5-wallet-with-cards")
        }
    }

    @Test func faceIDIsASheetWhoseMatchAuthorizes() async throws {
        let daemon = try await DaemonProcess.withStudio(apps: [ExampleBundles.sampleIssuerApp])
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        try await Self.withStudio(daemon) { page in
            try await page.tap("#add-card")
            try await page.tap("[data-issuer]")
            try await page.tap("[data-screen=extension] [data-action='Use Face ID']")
            try await page.waitFor("[data-screen=faceid] [data-action=Match]")
            try await Self.keep(page, "face-id")
            try await page.tap("[data-screen=faceid] [data-action=Match]")
            try await page.waitFor("[data-screen=outcome]", timeout: .seconds(60))
            #expect(try await page.evaluate("document.querySelectorAll('[data-card] .ok').length") as? Int == 3)
        }
    }

    @Test func theExtensionsOutputAndProcessesShowBesideThePhone() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        try ExampleBundles.setMode("stdout-noise", appex: apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex"))
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--http", "127.0.0.1:0", "--deadline", "status=5s"]).waitUntilServing()
        _ = try await daemon.call("apps.open", .object(["app": .string("TestHelper")]))
        try await Self.withStudio(daemon) { page in
            try await page.tap("#add-card")
            try await page.waitFor("[data-issuer]")
            try await page.waitFor("#output li[data-stream=stderr]")
            try await page.waitFor("#processes tr[data-process] .bar")
            try await page.waitFor("#events li[data-kind=result] .meter")
            try await Self.keep(page, "panels")
            let line = try await page.evaluate("document.querySelector('#output li[data-stream=stderr]').textContent") as? String
            #expect(line?.contains("TestHelperExt: noise on stderr") == true, "\(line ?? "nil")")
            let footprint = try await page.evaluate("document.querySelector('#processes tr[data-process]').textContent") as? String
            #expect(footprint?.contains("of 55.0 MB") == true, "the non-UI extension's footprint against its limit: \(footprint ?? "nil")")
        }
    }

    @Test func choosingTheWatchPairsItAndListsItsIssuers() async throws {
        let daemon = try await DaemonProcess.withStudio(apps: [ExampleBundles.sampleIssuerApp])
        _ = try await daemon.call("apps.open", .object(["app": .string("SampleIssuer")]))
        try await Self.withStudio(daemon) { page in
            try await page.tap("#device-watch")
            try await page.waitFor("#device-watch.selected")
            #expect(try await daemon.call("device.get")["watchPaired"] == .bool(true))
            try await page.tap("#add-card")
            try await page.waitFor("[data-screen=issuers]")
            let heading = try await page.evaluate("document.querySelector('[data-screen=issuers] h3').textContent") as? String
            #expect(heading == "From Apps on Your Watch")
            try await Self.keep(page, "watch-issuers")

            // Adding to the Watch from the page: the cards land in the Watch's library, not the iPhone's.
            try await page.tap("[data-issuer]")
            try await page.tap("[data-screen=extension] [data-action='Use Face ID']")
            try await page.tap("[data-screen=faceid] [data-action=Match]")
            try await page.waitFor("[data-screen=outcome]", timeout: .seconds(60))
            try await Self.keep(page, "watch-cards")
            let added = try await page.evaluate("document.querySelector('[data-card] .ok').textContent") as? String
            #expect(added == "Added to Apple Watch", "\(added ?? "nil")")
            let onWatch = try await daemon.call("passes.list", .object(["device": .string("watch")]))
            let onPhone = try await daemon.call("passes.list", .object(["device": .string("iphone")]))
            guard case .array(let watchPasses) = onWatch, case .array(let phonePasses) = onPhone else {
                Issue.record("passes.list: \(onWatch) \(onPhone)")
                return
            }
            #expect(!watchPasses.isEmpty && watchPasses.allSatisfy { $0["deviceName"] != .string("iPhone") }, "\(onWatch)")
            #expect(phonePasses.isEmpty, "nothing added to the iPhone: \(onPhone)")
        }
    }

    @Test func anExtensionsMarkupShowsAsText() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        try ExampleBundles.setMode("hostile-title", appex: apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex"))
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--http", "127.0.0.1:0", "--deadline", "status=5s"]).waitUntilServing()
        _ = try await daemon.call("apps.open", .object(["app": .string("TestHelper")]))
        try await Self.withStudio(daemon) { page in

            try await page.tap("#add-card")
            try await page.tap("[data-issuer]")
            try await page.waitFor("[data-screen=outcome] [data-card]", timeout: .seconds(60))
            try await Self.keep(page, "hostile-title")
            let shown = try await page.evaluate("document.querySelector('[data-card] [data-card-title]').textContent") as? String
            #expect(shown == #"<script>window.pwned = 1</script><img src=x onerror="window.pwned = 2"> •••• 0001"#)
            #expect(try await page.evaluate("document.querySelectorAll('#screen img:not(.card-image), #screen script').length") as? Int == 0)
            #expect(try await page.evaluate("document.querySelectorAll('#screen img.card-image').length") as? Int == 1, "the card's art")
            #expect(try await page.evaluate("window.pwned === undefined") as? Bool == true)
        }
    }

    /// Every string an extension or the daemon gives the page, as markup: a form's title,
    /// message, field label and action, a card's title and error, the flow's failure and
    /// findings. Each shows as text; nothing runs, no element is made from it.
    @Test func markupInAFormAnErrorOrAFindingShowsAsText() async throws {
        let daemon = try await DaemonProcess.withStudio()
        try await Self.withStudio(daemon) { page in
            let hostile = StudioScreenFixture.hostileText
            let form = UIPromptParams(title: hostile, message: hostile, fields: [.init(name: "code", label: hostile)], actions: [hostile])
            let json = String(decoding: try JSONEncoder().encode(form), as: UTF8.self)
            try await page.evaluate("Screen.prompt(\(json), (answer) => { window.__answer = answer; }); true")
            try await page.waitFor("[data-drawn=form]")
            try await Self.keep(page, "hostile-form")
            let shown = try await page.evaluate("""
                [document.querySelector('.alert-title').textContent, document.querySelector('.alert-message').textContent,
                 document.querySelector('[data-field=code]').placeholder, document.querySelector('.actions button').textContent]
                """) as? [String]
            #expect(shown == [hostile, hostile, hostile, hostile])
            try await page.tap(".actions button")
            #expect(try await page.evaluate("window.__answer.action") as? String == hostile, "the action answers with its own title")

            let report = #"{"device":"iphone","discovery":[],"entries":[],"steps":[],"failure":"FAILURE","findings":["FINDING"],"cards":[{"identifier":"c","title":"TITLE","added":false,"error":"ERROR"}]}"#
                .replacingOccurrences(of: "FAILURE", with: hostile.replacingOccurrences(of: "\"", with: "\\\""))
                .replacingOccurrences(of: "FINDING", with: hostile.replacingOccurrences(of: "\"", with: "\\\""))
                .replacingOccurrences(of: "TITLE", with: hostile.replacingOccurrences(of: "\"", with: "\\\""))
                .replacingOccurrences(of: "ERROR", with: hostile.replacingOccurrences(of: "\"", with: "\\\""))
            try await page.evaluate("Studio.outcome(\(report)); true")
            try await page.waitFor("[data-screen=outcome]")
            try await Self.keep(page, "hostile-outcome")
            let texts = try await page.evaluate("""
                [document.querySelector('[data-failure]').textContent, document.querySelector('[data-card-title]').textContent,
                 document.querySelector('[data-card] li').textContent, document.querySelector('[data-screen=outcome] > ul li').textContent]
                """) as? [String]
            #expect(texts == [hostile, hostile, hostile, hostile])
            #expect(try await page.evaluate("document.querySelectorAll('#screen img, #screen b, #screen script').length") as? Int == 0)
            #expect(try await page.evaluate("window.pwned === undefined") as? Bool == true)
        }
    }

    /// A hand-built screen, as the SDK will send it: fields and buttons are found by the same
    /// `data-field` and `data-action` as on the form, at their frames, and a tap answers with them.
    @Test func aLaidOutScreenIsDrawnAtItsFramesAndAnswersWithItsFields() async throws {
        let daemon = try await DaemonProcess.withStudio()
        try await Self.withStudio(daemon) { page in
            let params = StudioScreenFixture.signIn
            let json = String(decoding: try JSONEncoder().encode(params), as: UTF8.self)
            try await page.evaluate("Screen.prompt(\(json), (answer) => { window.__answer = answer; }); true")
            try await page.waitFor("[data-drawn=tree] [data-field=password]")
            try await Self.keep(page, "tree-sign-in")
            let frame = try await page.evaluate("""
                (() => { const screen = document.getElementById('screen').getBoundingClientRect();
                  const field = document.querySelector('[data-field=password]').getBoundingClientRect();
                  return [field.left - screen.left, field.top - screen.top, field.width, field.height]; })()
                """) as? [Double]
            #expect(frame == [20, 332, 350, 44], "the password field at its frame in points (the form's origin 20,200 plus 0,132)")
            #expect(try await page.evaluate("document.querySelector('[data-field=password]').type") as? String == "password")
            let label = try await page.evaluate("document.querySelector('[data-identifier=hostile]').textContent") as? String
            #expect(label == StudioScreenFixture.hostileText)
            #expect(try await page.evaluate("document.querySelectorAll('#screen img').length") as? Int == 1, "the logo alone")
            try await page.type("jappleseed", into: "[data-field=username]")
            try await page.type("wallet-demo", into: "[data-field=password]")
            try await page.tap("[data-action='Log In']")
            let answer = try await page.evaluate("JSON.stringify(window.__answer)") as? String
            let decoded = try JSONDecoder().decode(UIPromptResult.self, from: Data((answer ?? "{}").utf8))
            #expect(decoded == UIPromptResult(action: "Log In", values: ["username": "jappleseed", "password": "wallet-demo", "remember": "true"]))
            #expect(try await page.evaluate("window.pwned === undefined") as? Bool == true)
        }
    }

    /// A screen with a field and no button: its return key, which the tree has no view for, is
    /// a key along the bottom, and Enter in the field presses it.
    @Test func aScreenWithNoButtonAnswersWithItsReturnKey() async throws {
        let daemon = try await DaemonProcess.withStudio()
        try await Self.withStudio(daemon) { page in
            let json = String(decoding: try JSONEncoder().encode(StudioScreenFixture.code), as: UTF8.self)
            try await page.evaluate("Screen.prompt(\(json), (answer) => { window.__answer = answer; }); true")
            try await page.waitFor("[data-drawn=tree] .keyboard-key[data-action=Go]")
            try await page.type("123456", into: "[data-field=code]")
            try await Self.keep(page, "tree-return-key")
            try await page.evaluate("""
                document.querySelector('[data-field=code]').dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true })); true
                """)
            let answer = try await page.evaluate("JSON.stringify(window.__answer)") as? String
            let decoded = try JSONDecoder().decode(UIPromptResult.self, from: Data((answer ?? "{}").utf8))
            #expect(decoded == UIPromptResult(action: "Go", values: ["code": "123456"]))
            // The card above the field: its gradient top to bottom, its shadow and its opacity.
            let style = try await page.evaluate("""
                (() => { const card = getComputedStyle(document.querySelector('[data-identifier=card]'));
                  return [card.backgroundImage, card.boxShadow, card.opacity].join(" | "); })()
                """) as? String
            #expect(style == "linear-gradient(rgb(255, 59, 48), rgb(0, 122, 255)) | rgba(0, 0, 0, 0.2) 0px 4px 16px 0px | 0.5",
                    "\(style ?? "")")
        }
    }

    /// The conformance panel: Run on an extension that writes a garbage line runs the daemon's
    /// battery, shows its lines as they come, then each check; the failed one with its evidence.
    @Test func theConformancePanelRunsTheBatteryAndShowsEachCheck() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        try ExampleBundles.setMode("garbage-line", appex: apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex"))
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--http", "127.0.0.1:0"]).waitUntilServing()
        try await Self.withStudio(daemon) { page in
            try await page.tap("[data-conform='com.example.testhelper.TestHelperExt']")
            try await page.waitFor("[data-conform-verdict]", timeout: .seconds(120))
            try await Self.keep(page, "conformance")
            #expect(try await page.evaluate("document.querySelector('[data-conform-verdict]').dataset.conformVerdict") as? String == "failed")
            let passed = try await page.evaluate("document.querySelectorAll('[data-check][data-status=passed]').length") as? Int ?? 0
            let failed = try await page.evaluate("""
                Array.from(document.querySelectorAll('[data-check][data-status=failed]'), (check) => check.dataset.check + ': ' + check.textContent).join('\\n')
                """) as? String ?? ""
            #expect(passed > 3, "the checks that hold are listed too")
            #expect(failed.contains("protocol"), "the fd 4 check fails, with its evidence: \(failed)")
            let log = try await page.evaluate("document.getElementById('conform-log').textContent") as? String ?? ""
            #expect(log.contains("TestHelperExt"), "the battery's lines as they came: \(log.prefix(300))")
            #expect(try await page.evaluate("document.querySelector('[data-conform]').disabled") as? Bool == false, "Run again once done")
        }
    }
}

