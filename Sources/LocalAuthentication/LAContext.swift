@_exported import Foundation
import Dispatch
import WalletExtensionRuntime

/// Where an Objective-C style API stores an error (`NSErrorPointer`); Foundation on Linux has
/// no autoreleasing pointers, so it is a plain pointer: `&error` works as on iOS.
public typealias NSErrorPointer = UnsafeMutablePointer<NSError?>?

/// What to authenticate with (`LAPolicy`).
public enum LAPolicy: Int, Sendable {
    /// Face ID or Touch ID only.
    case deviceOwnerAuthenticationWithBiometrics = 1
    /// Biometrics, falling back to the device passcode.
    case deviceOwnerAuthentication = 2
}

/// The kind of biometry the device has (`LABiometryType`).
public enum LABiometryType: Int, Sendable {
    case none = 0
    case touchID = 1
    case faceID = 2
    case opticID = 4
}

/// Why an evaluation failed (`LAError`).
public struct LAError: Error, Sendable, Hashable {
    /// The reason (`LAError.Code`).
    public enum Code: Int, Sendable {
        case authenticationFailed = -1
        case userCancel = -2
        case userFallback = -3
        case systemCancel = -4
        case passcodeNotSet = -5
        case biometryNotAvailable = -6
        case biometryNotEnrolled = -7
        case biometryLockout = -8
        case appCancel = -9
        case invalidContext = -10
        case notInteractive = -1004
    }

    /// The reason.
    public let code: Code

    /// An error with `code`.
    public init(_ code: Code) {
        self.code = code
    }

    public static let authenticationFailed = Code.authenticationFailed
    public static let userCancel = Code.userCancel
    public static let biometryNotAvailable = Code.biometryNotAvailable
}

/// An authentication context (`LAContext`). The simulated iPhone has Face ID; an evaluation
/// is answered by the host's user agent (`ui.biometric`: its Face ID answers in a script, a
/// question on a terminal). Only a UI extension may ask; elsewhere the evaluation fails with
/// ``LAError/Code/biometryNotAvailable``.
open class LAContext: NSObject {

    /// The text of the fallback button (shown by nothing here; kept for source compatibility).
    open var localizedFallbackTitle: String?
    /// The text of the cancel button.
    open var localizedCancelTitle: String?

    /// A context.
    public override init() {}

    /// Face ID, as on the simulated iPhone.
    open var biometryType: LABiometryType { .faceID }

    /// True: the simulated iPhone has Face ID enrolled.
    open func canEvaluatePolicy(_ policy: LAPolicy, error: NSErrorPointer) -> Bool {
        true
    }

    /// Asks the user to authenticate; `reply` runs on a background queue with the outcome. The
    /// wait holds no thread, so that several checks in flight at once do not hold up the main queue.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String,
                             reply: @escaping @Sendable (Bool, (any Error)?) -> Void) {
        Task.detached {
            let outcome = await LAContext.evaluate(reason: localizedReason)
            reply(outcome == nil, outcome)
        }
    }

    /// The async form of ``evaluatePolicy(_:localizedReason:reply:)``.
    /// - Throws: ``LAError`` when the user did not authenticate.
    open func evaluatePolicy(_ policy: LAPolicy, localizedReason: String) async throws -> Bool {
        let passed: Bool
        do {
            passed = try await WalletUserInterface.authenticateWithBiometrics(reason: localizedReason)
        } catch {
            print("LAContext: Face ID could not be asked for (\(error))")
            throw LAError(.biometryNotAvailable)
        }
        guard passed else { throw LAError(.authenticationFailed) }
        return true
    }

    /// Nil when the user passed the check, else why not.
    private static func evaluate(reason: String) async -> LAError? {
        do {
            return try await WalletUserInterface.authenticateWithBiometrics(reason: reason) ? nil : LAError(.authenticationFailed)
        } catch {
            print("LAContext: Face ID could not be asked for (\(error))")
            return LAError(.biometryNotAvailable)
        }
    }
}
