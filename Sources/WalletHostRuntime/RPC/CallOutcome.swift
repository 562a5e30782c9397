import Foundation

/// The outcome of one call, with the timings and memory a person needs to judge it.
public struct CallOutcome<Result: Sendable>: Sendable {
    public var method: String
    public var result: Swift.Result<Result, ExtensionCallError>
    /// Spawn + handshake, when this call launched the process and the handshake finished in time.
    public var launchMilliseconds: Double?
    /// True when this call found no warm process and launched one.
    public var launchedProcess: Bool
    /// From writing the request to the response (or to the failure).
    public var callMilliseconds: Double
    /// From the ask to the outcome: what the deadline is measured against.
    public var totalMilliseconds: Double
    /// The highest footprint sampled during the call.
    public var peakFootprintBytes: Int?
    public var pid: Int32?
    /// Whether the process that took the call runs in the sandbox (nil when there was none).
    public var sandboxed: Bool?
    /// Why a process meant for the sandbox runs without it (`--sandbox off`, what the kernel refused).
    public var unsandboxedReason: String?
    /// The deadline the call had, counted from the ask (nil: none).
    public var deadline: Duration?

    public init(method: String, result: Swift.Result<Result, ExtensionCallError>, launchMilliseconds: Double?,
                launchedProcess: Bool, callMilliseconds: Double, totalMilliseconds: Double, peakFootprintBytes: Int?, pid: Int32?,
                sandboxed: Bool? = nil, unsandboxedReason: String? = nil, deadline: Duration? = nil) {
        self.method = method
        self.result = result
        self.launchMilliseconds = launchMilliseconds
        self.launchedProcess = launchedProcess
        self.callMilliseconds = callMilliseconds
        self.totalMilliseconds = totalMilliseconds
        self.peakFootprintBytes = peakFootprintBytes
        self.pid = pid
        self.sandboxed = sandboxed
        self.unsandboxedReason = unsandboxedReason
        self.deadline = deadline
    }
}
