import Foundation
import Testing
@testable import Wallet
import WalletWire

/// The add-card report draws a screen the SDK laid out, with the answer: secure values masked,
/// the chosen button marked, and nothing an extension sends turned into markup or CSS.
struct DrawnScreenHTMLTests {
    static var signIn: UIPromptParams {
        var title = ViewNode(kind: .label, frame: .init(x: 20, y: 100, width: 350, height: 40))
        title.text = "<script>window.pwned = 1</script>Sign in"
        var password = ViewNode(kind: .textField, frame: .init(x: 20, y: 160, width: 350, height: 44))
        password.field = "password"
        password.secure = true
        password.placeholder = "Password"
        var logIn = ViewNode(kind: .button, frame: .init(x: 20, y: 220, width: 350, height: 50))
        logIn.text = "Log In"
        logIn.action = "Log In"
        logIn.backgroundColor = "#007AFFFF"
        var sneaky = ViewNode(kind: .view, frame: .init(x: 0, y: 0, width: 10, height: 10))
        sneaky.backgroundColor = "red;background-image:url(https://example.com/x)"
        sneaky.gradient = .init(colors: ["#FF0000FF", "blue);x:url(y"], start: .init(x: 0, y: 0), end: .init(x: 1, y: 0))
        var root = ViewNode(kind: .view, frame: .init(x: 0, y: 0, width: 390, height: 844))
        root.children = [title, password, logIn, sneaky]
        return UIPromptParams(title: "Sign in", fields: [.init(name: "password", label: "Password", secure: true)],
                              actions: ["Log In"], screen: ScreenTree(size: .init(width: 390, height: 844), root: root))
    }

    @Test("the drawn screen: frames scaled to the column, the secure value masked, the chosen button marked")
    func drawsTheAnsweredScreen() {
        var report = FlowReport(device: .iphone)
        report.failure = "stopped"
        let answer = UIPromptResult(action: "Log In", values: ["password": "hunter2"])
        let html = AddCardPage(report: report, offered: [], exchanges: [.prompt(Self.signIn, answer: answer)]).render()
        #expect(html.contains("data-drawn=\"tree\""))
        #expect(html.contains("width:272px;height:588.64px"), "390 x 844 scaled to 272 wide")
        #expect(html.contains("left:20px;top:160px;width:350px;height:44px;"))
        #expect(html.contains("data-field=\"password\" style=") && html.contains(">•••••••<"))
        #expect(!html.contains("hunter2"), "a secure value never reaches the page")
        #expect(html.contains("data-action=\"Log In\" data-chosen=\"true\""))
        #expect(html.contains("background:rgba(0,122,255,1);"))
    }

    @Test("an extension's text is escaped, and a colour that is not #RRGGBB(AA) is dropped, not written as CSS")
    func hostileValuesStayInert() {
        let html = AddCardPage(report: FlowReport(device: .iphone), offered: [], exchanges: [.prompt(Self.signIn, answer: nil)]).render()
        #expect(!html.contains("<script>window.pwned"))
        #expect(html.contains("&lt;script&gt;window.pwned = 1&lt;/script&gt;Sign in"))
        #expect(!html.contains("example.com") && !html.contains("url(y"), "no CSS from the extension")
        #expect(html.contains(">Password</span>"), "an unanswered field shows its placeholder")
    }

    @Test("colours: #RRGGBB and #RRGGBBAA as rgba; anything else nil")
    func colours() {
        #expect(DrawnScreenHTML.color("#FF3B30") == "rgba(255,59,48,1)")
        #expect(DrawnScreenHTML.color("#00000033") == "rgba(0,0,0,0.2)")
        for bad in ["red", "#GG0000", "#FF0000FF;x", "", "#12345"] { #expect(DrawnScreenHTML.color(bad) == nil, "\(bad)") }
    }
}
