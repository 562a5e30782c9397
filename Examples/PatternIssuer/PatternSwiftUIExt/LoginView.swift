import Combine
import SwiftUI

/// The login's state, shared by the view and the backend call.
@MainActor
final class LoginModel: ObservableObject {
    @Published var username = ""
    @Published var password = ""
    @Published var errorMessage: String?
    @Published var isSigningIn = false

    /// Asks the backend; `authorized` runs on the main thread once it accepted the password.
    func signIn(authorized: @escaping @MainActor () -> Void) {
        isSigningIn = true
        errorMessage = nil
        LoginBackend.check(username: username, password: password) { accepted in
            Task { @MainActor in
                self.isSigningIn = false
                if accepted {
                    authorized()
                } else {
                    self.errorMessage = "Wrong password for \(self.username). Try again."
                    self.password = ""
                }
            }
        }
    }
}

/// A SwiftUI login, as issuers write it for a `UIHostingController`.
struct LoginView: View {
    @StateObject private var model = LoginModel()
    @State private var acceptedTerms = false
    let onFinish: (Bool) -> Void

    var body: some View {
        NavigationView {
            VStack(alignment: .leading, spacing: 16) {
                Image(systemName: "creditcard")
                    .imageScale(.large)
                Text("Pattern Bank")
                    .font(.largeTitle)
                if let errorMessage = model.errorMessage {
                    Text(errorMessage)
                        .foregroundColor(.red)
                }
                TextField("Username", text: $model.username)
                    .textContentType(.username)
                    .textInputAutocapitalization(.never)
                SecureField("Password", text: $model.password)
                TermsRow(accepted: $acceptedTerms)
                if model.isSigningIn {
                    ProgressView("Signing in…")
                } else {
                    Button("Sign In") {
                        model.signIn { onFinish(true) }
                    }
                    .buttonStyle(BorderedProminentButtonStyle())
                    .disabled(!acceptedTerms || model.username.isEmpty)
                }
                Divider()
                ForEach(["Help", "Privacy"], id: \.self) { link in
                    Text(link)
                        .font(.footnote)
                }
                Button("Cancel", role: .cancel) { onFinish(false) }
                Spacer()
            }
            .padding()
            .navigationTitle("Sign in with SwiftUI")
        }
    }
}

/// The terms switch, bound to the login's state.
struct TermsRow: View {
    @Binding var accepted: Bool

    var body: some View {
        HStack {
            Toggle("Accept the terms", isOn: $accepted)
                .accessibilityIdentifier("terms")
        }
    }
}
