import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

/// What a screen shows the user agent: read from UIKit views, and from SwiftUI views rendered
/// into them; the answer filled in and the button tapped.
@MainActor
struct ScreenFormTests {
    /// A login screen: heading, hidden error, two fields, a switch after its label, a login
    /// button enabled by typing, a cancel button.
    final class LoginScreen: UIViewController {
        let error = UILabel()
        let username = UITextField()
        let password = UITextField()
        let remember = UISwitch()
        let logIn = UIButton(type: .system)
        let spinner = UIActivityIndicatorView(style: .medium)
        var taps: [String] = []

        override func viewDidLoad() {
            title = "Sign in"
            let heading = UILabel()
            heading.text = "Bank"
            error.text = "Wrong password"
            error.isHidden = true
            username.placeholder = "User name"
            password.placeholder = "Password"
            password.isSecureTextEntry = true
            let rememberLabel = UILabel()
            rememberLabel.text = "Remember me"
            logIn.setTitle("Log In", for: .normal)
            logIn.isEnabled = false
            logIn.addAction(UIAction { [unowned self] _ in taps.append("log in as \(username.text ?? "")") }, for: .touchUpInside)
            username.addAction(UIAction { [unowned self] _ in logIn.isEnabled = !(username.text ?? "").isEmpty }, for: .editingChanged)
            let cancel = UIButton(primaryAction: UIAction(title: "Cancel") { [unowned self] _ in taps.append("cancel") })
            let stack = UIStackView(arrangedSubviews: [heading, error, username, password,
                                                       UIStackView(arrangedSubviews: [rememberLabel, remember]), spinner, logIn, cancel])
            view.addSubview(stack)
        }
    }

    @Test("labels, fields, switches and buttons in order; hidden views left out; a disabled button offered beside fields")
    func readsAUIKitScreen() {
        let screen = LoginScreen()
        let form = ScreenForm(controller: screen.loadedForTest())
        #expect(form.prompt.title == "Sign in")
        #expect(form.prompt.message == "Bank\nRemember me")
        #expect(form.prompt.fields == [UIPromptParams.Field(name: "username", label: "User name"),
                                       UIPromptParams.Field(name: "password", label: "Password", secure: true),
                                       UIPromptParams.Field(name: "rememberme", label: "Remember me (yes/no)")])
        #expect(form.prompt.actions == ["Log In", "Cancel"])
        #expect(form.isReady)
        screen.spinner.startAnimating()
        #expect(!ScreenForm(controller: screen).isReady, "a spinning screen is busy")
    }

    @Test("the answer types into the fields (enabling Log In), sets the switch, then the tap runs the action")
    func answerFillsAndTaps() {
        let screen = LoginScreen().loadedForTest()
        let form = ScreenForm(controller: screen)
        form.fill(from: UIPromptResult(action: "Log In", values: ["username": "pat", "password": "x", "rememberme": "yes"]))
        #expect(screen.remember.isOn && screen.logIn.isEnabled)
        #expect(ScreenForm(controller: screen).tap("Log In") == nil)
        #expect(screen.taps == ["log in as pat"])
        #expect(ScreenForm(controller: screen).tap("Sign Up")?.contains("not a button") == true)
    }

    @Test("a screen with no field and only a disabled button is not sent")
    func disabledButtonAloneIsNotReady() {
        let controller = UIViewController()
        let button = UIButton(type: .system)
        button.setTitle("Continue", for: .normal)
        button.isEnabled = false
        controller.view.addSubview(button)
        let form = ScreenForm(controller: controller)
        #expect(form.prompt.actions.isEmpty && !form.isReady)
    }

    struct Counter: View {
        @State private var count = 0
        @State private var name = ""

        var body: some View {
            VStack {
                Text("Count \(count)")
                if count > 1 {
                    Text("More than one")
                } else {
                    Text("One or none")
                }
                TextField("Name", text: $name)
                Button("Add") { count += 1 }
                    .disabled(name.isEmpty)
                ForEach(0..<count, id: \.self) { Text("Row \($0)") }
            }
            .navigationTitle("Counter")
        }
    }

    @Test("SwiftUI: @State survives renders; a binding set by typing re-renders before the tap; if/else and ForEach follow the state")
    func swiftUIStateRendersTheNextForm() {
        let host = UIHostingController(rootView: Counter())
        var form = ScreenForm(controller: host.loadedForTest())
        #expect(form.prompt.title == "Counter")
        #expect(form.prompt.message == "Count 0\nOne or none")
        #expect(form.prompt.fields.map(\.name) == ["name"])
        form.fill(from: UIPromptResult(action: "Add", values: ["name": "pat"]))
        host.updateBeforeTap()
        for _ in 0..<2 {
            #expect(ScreenForm(controller: host).tap("Add") == nil)
            host.updateBeforeTap()
        }
        form = ScreenForm(controller: host)
        #expect(form.prompt.message == "Count 2\nMore than one\nRow 0\nRow 1")
        #expect((host.view.viewsInside.compactMap { $0 as? UITextField }.first?.text) == "pat")
    }
}

extension UIViewController {
    /// The controller with its view loaded, as after Wallet presented it.
    fileprivate func loadedForTest() -> Self {
        loadViewIfNeeded()
        return self
    }
}
