import Foundation
import Testing
@testable import SwiftUI
@_spi(WalletHost) @testable import UIKit
import WalletWire

// The SwiftUI that real issuer screens (and the reference guide's own screen) use, written as
// they write it; issue 33 found each of these missing. This file compiling is half the test.

/// A login screen in the style of real issuer code: shapes, styles, safe areas, effects.
private struct IssuerLoginView: View {
    @State private var username = ""
    @State private var password = ""
    @State private var changes: [String] = []
    @State private var isExpanded = false

    var body: some View {
        ZStack {
            Color.black.opacity(0.1).edgesIgnoringSafeArea(.all)
            VStack(spacing: 12) {
                Circle().fill(Color.blue).frame(width: 40, height: 40).shadow(radius: 4)
                Rectangle().fill(Color.gray).frame(height: 1)
                RoundedRectangle(cornerRadius: 12).stroke(Color.gray, lineWidth: 1)
                Capsule().fill(Color.green).brightness(0.1).blur(radius: 2)
                Text("Sign in").bold().font(.system(size: 20, weight: .thin))
                Text("Welcome").fontWeight(.black).fontWeight(.ultraLight)
                TextField("Username", text: $username)
                    .textFieldStyle(.roundedBorder)
                    .onChange(of: username) { newValue in changes.append("new:\(newValue)") }
                SecureField("Password", text: $password)
                    .textFieldStyle(RoundedBorderTextFieldStyle())
                    .onChange(of: password) { oldValue, newValue in changes.append("\(oldValue)->\(newValue)") }
                Button { withAnimation(.easeInOut(duration: 0.2)) { isExpanded.toggle() } } label: {
                    Image(systemName: "xmark")
                }
                .accessibilityLabel("Close")
                .buttonStyle(.plain)
                Button("Continue") {}
                    .buttonStyle(.borderedProminent)
                    .scaleEffect(isExpanded ? 1.1 : 1)
                    .contentShape(Rectangle())
                Button("Help") {}.buttonStyle(.bordered).cornerRadius(8).padding(EdgeInsets(top: 1, leading: 2, bottom: 1, trailing: 2))
                Link("Terms", destination: URL(string: "https://example.com/terms")!)
                HStack { Text("Card"); Text("•••• 4242") }.accessibilityElement(children: .combine)
                List { Text("Row").listRowBackground(Color.clear) }.listStyle(.insetGrouped)
                ForEach(changes, id: \.self) { Text($0) }
            }
            .padding()
            .ignoresSafeArea(.keyboard)
        }
        .navigationTitle("Bank")
    }
}

/// A custom button style, as issuers write them.
private struct PillButtonStyle: ButtonStyle {
    func makeBody(configuration: Configuration) -> some View {
        configuration.label
            .padding()
            .background(Capsule().fill(configuration.isPressed ? Color.gray : Color.blue))
    }
}

#Preview {
    IssuerLoginView()
}

#Preview("Dark", traits: .sizeThatFitsLayout) {
    IssuerLoginView().buttonStyle(PillButtonStyle())
}

@MainActor
@Suite("SwiftUI gaps of issue 33")
struct SwiftUIGapTests {
    @Test("shapes, styles and effects leave the form as the controls make it; an image button takes its accessibility label; Link is an action")
    func formOfARealScreen() {
        let host = UIHostingController(rootView: IssuerLoginView())
        host.loadViewIfNeeded()
        let form = ScreenForm(controller: host)
        #expect(form.prompt.title == "Bank")
        #expect(form.prompt.fields.map(\.name) == ["username", "password"])
        #expect(form.prompt.message == "Sign in\nWelcome\nCard\n•••• 4242\nRow")
        let actions = form.prompt.actions
        #expect(actions.contains("Continue") && actions.contains("Help") && actions.contains("Terms"))
        let closeButton = host.view.viewsInside.compactMap { $0 as? UIButton }.first { $0.accessibilityLabel == "Close" }
        #expect(closeButton != nil)
    }

    @Test("onChange runs after a render in which the value changed, with the old and new values; not on the first render")
    func onChangeRunsOnChange() async {
        let host = UIHostingController(rootView: IssuerLoginView())
        host.loadViewIfNeeded()
        await Self.drainMainQueue()
        host.updateBeforeTap()
        #expect(!(ScreenForm(controller: host).prompt.message ?? "").contains("new:"))
        ScreenForm(controller: host).fill(from: UIPromptResult(action: "Continue", values: ["username": "pat", "password": "pw"]))
        host.updateBeforeTap()
        await Self.drainMainQueue()
        host.updateBeforeTap()
        let message = ScreenForm(controller: host).prompt.message ?? ""
        #expect(message.contains("new:pat"))
        #expect(message.contains("->pw"))
    }

    @Test("withAnimation returns its body's result and the state change takes effect")
    func withAnimationRunsItsBody() {
        var value = 0
        let result = withAnimation { () -> Int in
            value = 2
            return value * 2
        }
        #expect(value == 2 && result == 4)
        #expect(withAnimation(nil) { "done" } == "done")
    }

    /// Lets the main queue run what renders and `onChange` scheduled.
    private static func drainMainQueue() async {
        for _ in 0..<3 {
            await withCheckedContinuation { continuation in DispatchQueue.main.async { continuation.resume() } }
        }
    }
}
