import Synchronization
import WalletWire

/// Passes every prompt to another user agent and remembers what was asked and answered, so a
/// report can show the authorization screens as the UI extension described them.
public final class RecordingUserAgent: UserAgent {
    /// One exchange with the user, in order.
    public enum Exchange: Sendable {
        case prompt(UIPromptParams, answer: UIPromptResult?)
        case biometric(UIBiometricParams, success: Bool?)
    }

    private let next: any UserAgent
    private let recorded = Mutex<[Exchange]>([])

    public init(_ next: any UserAgent) {
        self.next = next
    }

    /// Everything asked so far, in order (an answer is nil when the user agent failed).
    public var exchanges: [Exchange] { recorded.withLock { $0 } }

    public func prompt(_ prompt: UIPromptParams) async throws -> UIPromptResult {
        do {
            let answer = try await next.prompt(prompt)
            recorded.withLock { $0.append(.prompt(prompt, answer: answer)) }
            return answer
        } catch {
            recorded.withLock { $0.append(.prompt(prompt, answer: nil)) }
            throw error
        }
    }

    public func biometric(_ request: UIBiometricParams) async throws -> UIBiometricResult {
        do {
            let result = try await next.biometric(request)
            recorded.withLock { $0.append(.biometric(request, success: result.success)) }
            return result
        } catch {
            recorded.withLock { $0.append(.biometric(request, success: nil)) }
            throw error
        }
    }
}
