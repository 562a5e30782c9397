import Foundation
import WalletWire

/// What the connection hands back for one request.
struct CallReply: Sendable {
    /// The response line on success, to be decoded by the caller into the method's result type.
    var outcome: Result<Data, ExtensionCallError>
    /// The highest footprint sampled while the call was in flight.
    var peakFootprintBytes: Int?
    /// When the request was written to the extension (nil if it never was).
    var sentAt: ContinuousClock.Instant?
    var finishedAt: ContinuousClock.Instant
}

/// A request the connection is waiting on.
struct PendingCall {
    var method: String
    var askedAt: ContinuousClock.Instant
    var deadline: ContinuousClock.Instant?
    /// The encoded request, kept until it is written (calls queue behind the handshake).
    var unsentLine: Data?
    var sentAt: ContinuousClock.Instant?
    var peakFootprintBytes: Int?
    var continuation: CheckedContinuation<CallReply, Never>
}

/// A request whose deadline passed: a response that still arrives is a late completion.
struct ExpiredCall {
    var method: String
    var askedAt: ContinuousClock.Instant
    var deadline: ContinuousClock.Instant
    /// If no response has come by then, the extension is declared hung and stopped.
    var hangDeadline: ContinuousClock.Instant
    /// The extension answered the cancel with -32002: it is alive, not hung; a result may follow.
    var acknowledged = false
}
