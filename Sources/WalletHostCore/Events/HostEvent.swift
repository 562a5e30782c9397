import Foundation

/// One entry of the event log: something the host saw or did.
///
/// Written as one JSON object per line (see ``EventLogFile``); `kind` values are the contract
/// for people who grep the log: `spawn`, `spawnFailed`, `handshake`, `call`, `result`, `error`,
/// `deadlineMiss`, `lateCompletion`, `cancelAcknowledged`, `doubleCompletion`, `unknownResponse`,
/// `protocolError`, `memoryPeak`, `memoryKill`, `hung`, `stop`, `kill`, `exit`, `service`.
public struct HostEvent: Sendable, Codable, Equatable {
    public var time: Date
    public var kind: String
    public var bundleIdentifier: String?
    public var pid: Int32?
    public var method: String?
    public var requestID: String?
    public var milliseconds: Double?
    public var footprintBytes: Int?
    public var message: String?

    public init(kind: String, bundleIdentifier: String? = nil, pid: Int32? = nil, method: String? = nil,
                requestID: String? = nil, milliseconds: Double? = nil, footprintBytes: Int? = nil,
                message: String? = nil, time: Date = Date()) {
        self.time = time
        self.kind = kind
        self.bundleIdentifier = bundleIdentifier
        self.pid = pid
        self.method = method
        self.requestID = requestID
        self.milliseconds = milliseconds
        self.footprintBytes = footprintBytes
        self.message = message
    }
}

/// Receives events and extension output. Implementations must be cheap and thread-safe:
/// they are called from every extension's I/O thread.
public protocol HostEventSink: Sendable {
    func record(_ event: HostEvent)
    /// One line an extension wrote to stdout or stderr.
    func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String)
}

extension HostEventSink {
    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {}
}

/// Discards everything.
public struct NullEventSink: HostEventSink {
    public init() {}
    public func record(_ event: HostEvent) {}
}
