import Dispatch
import Foundation
import Synchronization
import WalletExtensionRuntime
import WalletWire

/// Ends a ``ScreenSession`` from any thread: the authorization's completion handler may run on
/// the main queue off the main thread (dispatchMain on Linux serves it from a worker) or on
/// another queue, and no screen may be sent once it ran.
package final class ScreenSessionEnd: Sendable {
    private let ended = Mutex(false)

    /// A session not ended yet.
    package init() {}

    /// Marks the session ended.
    package func end() { ended.withLock { $0 = true } }
    var isEnded: Bool { ended.withLock { $0 } }
}

/// Shows the UI extension's screen to the host's user agent while Wallet presents it: once the
/// view is on screen, and again after each change the code makes in answer to the user, the
/// visible ``ScreenForm`` goes to the host as a `ui.prompt`; the answer fills the fields and
/// taps the chosen button, which runs its actions.
///
/// Changes (a label's text, a button enabled, a view shown or hidden, a spinner stopped, a
/// controller pushed or dismissed) schedule a look at the screen on the main queue. The form is
/// sent when the screen is ready (``ScreenForm/isReady``) and no alert is presented (an alert
/// asks for itself); while a form is with the user, changes wait for the answer.
///
/// Each presented controller has a session of its own: calls in flight at once (the host may
/// send several `authorize` calls, as `wallet-host conform`'s `concurrent-calls` does) each send
/// their own screen, and each answer fills and taps the screen it was asked for. The host's user
/// agent decides how to show several forms at once (the terminal asks one at a time). A change
/// is not traced back to its screen: every session takes another look, and a screen that has a
/// form with the user, or is not ready, sends nothing.
///
/// The user may leave the sheet instead of tapping a button (an answer with `dismissed` true,
/// Wallet's dismissal), whatever the screen's buttons are titled; the session then ends and
/// hands over to its `onDismissal`, which completes the call as Wallet does. A form the user
/// agent could not show is left the same way unless it offers `Cancel`, so no call is left waiting.
@MainActor
package final class ScreenSession {
    /// The sessions showing a screen, by their root controller.
    private static var showing: [ObjectIdentifier: ScreenSession] = [:]

    private let root: UIViewController
    private let endSignal: ScreenSessionEnd
    private let onDismissal: @MainActor () -> Void
    private var isAsking = false
    private var lookScheduled = false
    private var ended = false
    /// Forms sent so far (tests read it).
    private(set) var formsSent = 0

    private init(root: UIViewController, endSignal: ScreenSessionEnd, onDismissal: @escaping @MainActor () -> Void) {
        self.root = root
        self.endSignal = endSignal
        self.onDismissal = onDismissal
    }

    /// Starts showing `root`'s screen (Wallet presented it) until `endSignal` ends it, beside the
    /// screens of other calls in flight; ends an earlier session of the same `root`.
    /// - Parameters:
    ///   - root: The controller Wallet presented.
    ///   - endSignal: Ends the session from any thread (the call's result is in).
    ///   - onDismissal: Runs on the main thread, once, when the user leaves the sheet.
    package static func begin(showing root: UIViewController, until endSignal: ScreenSessionEnd,
                              onDismissal: @escaping @MainActor () -> Void = {}) {
        let session = ScreenSession(root: root, endSignal: endSignal, onDismissal: onDismissal)
        showing.updateValue(session, forKey: ObjectIdentifier(root))?.ended = true
        session.scheduleLook()
    }

    /// Stops showing `root`'s screen (its authorization completed).
    package static func end(showing root: UIViewController) {
        guard let session = showing.removeValue(forKey: ObjectIdentifier(root)) else { return }
        session.ended = true
    }

    /// True during a look's layout pass.
    private static var isLayingOut = false

    /// How many screens are being shown (tests read it).
    static var sessionsShowing: Int { showing.count }

    private var isOver: Bool { ended || endSignal.isEnded }

    /// Something visible may have changed: every screen shown looks again soon. A session over
    /// (its result is in, or its screen could not be shown) is let go here if nothing ended it.
    static func noteChange() {
        guard !isLayingOut else { return }
        if showing.values.contains(where: \.isOver) { showing = showing.filter { !$0.value.isOver } }
        for session in showing.values { session.scheduleLook() }
    }

    private func scheduleLook() {
        guard !lookScheduled, !isOver, !isAsking else { return }
        lookScheduled = true
        DispatchQueue.main.async {
            MainActor.assumeIsolated {
                self.lookScheduled = false
                self.look()
            }
        }
    }

    /// Sends the screen's form if it is ready and nothing else is asking.
    private func look() {
        guard !isOver, !isAsking else { return }
        var shown = root
        while let presented = shown.presentedViewController { shown = presented }
        if shown is UIAlertController { return }
        // A layout pass, as iOS runs one after changes: the frames the drawn screen shows. What
        // the code changes in it is read below, so it schedules no other look.
        Self.isLayingOut = true
        ScreenForm.shownController(shown).layOutForScreen()
        Self.isLayingOut = false
        let form = ScreenForm(controller: shown)
        guard form.isReady else { return }
        isAsking = true
        formsSent += 1
        let prompt = form.prompt(drawing: shown)
        // Waits without holding a thread: a form is with the user for each call in flight.
        Task { @MainActor in
            let answer: Result<UIPromptResult, HostServiceError>
            do throws(HostServiceError) {
                answer = .success(try await WalletUserInterface.prompt(prompt))
            } catch {
                answer = .failure(error)
            }
            self.userAnswered(answer, on: form)
        }
    }

    private func userAnswered(_ answer: Result<UIPromptResult, HostServiceError>, on form: ScreenForm) {
        isAsking = false
        guard !isOver else { return }
        switch answer {
        case .success(let response) where response.dismissed:
            dismissSheet()
        case .success(let response):
            // Fill the fields, let the code react (a button enabled, a SwiftUI view rendered
            // again), then tap the chosen button as the screen is now.
            form.fill(from: response)
            var shown = root
            while let presented = shown.presentedViewController { shown = presented }
            shown.updateBeforeTap()
            let now = ScreenForm(controller: shown)
            // A screen that went on by itself once its field was filled has no return key to press.
            let wentOn = response.action == form.returnKey && now.returnKey != response.action
            if !wentOn, let problem = now.tap(response.action) { print("UIKit: \(problem)") }
            scheduleLook()
        case .failure(let error):
            print("UIKit: screen \"\(form.prompt.title)\" could not be shown (\(error))"
                  + (form.prompt.actions.contains("Cancel") ? "; tapping Cancel" : "; Wallet dismisses the sheet"))
            if form.prompt.actions.contains("Cancel") {
                _ = form.tap("Cancel")
            } else {
                dismissSheet()
            }
        }
    }

    /// The user left the sheet: nothing more is shown, and the presenter completes the call.
    private func dismissSheet() {
        ended = true
        if Self.showing[ObjectIdentifier(root)] === self { Self.showing.removeValue(forKey: ObjectIdentifier(root)) }
        onDismissal()
    }

    /// Leaves the sheet showing `controller` (or a controller it presented), as the user does by
    /// swiping it down; an alert with no cancel action that the user agent dismisses does this.
    /// - Returns: False when no screen shown holds `controller`.
    @discardableResult
    static func dismissSheet(holding controller: UIViewController) -> Bool {
        var presenter: UIViewController? = controller
        while let current = presenter {
            if let session = showing[ObjectIdentifier(current)], !session.isOver {
                session.dismissSheet()
                return true
            }
            presenter = current.presentingViewController ?? current.parent
        }
        return false
    }
}
