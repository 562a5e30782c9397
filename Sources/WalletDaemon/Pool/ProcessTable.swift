import Foundation
import WalletHostRuntime

/// What `wallet-host ps` shows, kept from the event stream alone: one row per extension
/// (bundle identifier), its current process, and counts over every process it had.
///
/// Pure state, fed by ``apply(_:)``, so it is tested without processes.
public struct ProcessTable: Sendable {
    /// One extension's row.
    public struct Row: Sendable, Equatable {
        public var bundleIdentifier: String
        /// The running process, nil when none runs.
        public var pid: Int32?
        /// When the running process started.
        public var startedAt: Date? { pid.flatMap { starts[$0]?.time } }
        /// The `spawn` event of each running process of this extension (a conformance run may
        /// have its own beside the daemon's warm one): when it started, whether it is sandboxed.
        public var starts: [Int32: HostEvent] = [:]
        /// Calls answered or failed, over every process (the `initialize` handshake excluded).
        public var calls = 0
        /// Calls in flight right now.
        public var callsInFlight = 0
        public var deadlineMisses = 0
        /// The highest footprint any call saw, in bytes.
        public var peakFootprintBytes: Int?
        /// Processes launched.
        public var launches = 0
        /// Processes that ended without the host asking (crash, signal, memory kill, hang).
        public var crashes = 0
        /// The last failure, as a sentence.
        public var lastError: String?

        public init(bundleIdentifier: String) {
            self.bundleIdentifier = bundleIdentifier
        }
    }

    public private(set) var rows: [String: Row] = [:]

    public init() {}

    /// Folds one event into the table.
    /// - Returns: the exit, when the event ended a process the host did not mean to stop.
    @discardableResult
    public mutating func apply(_ event: HostEvent) -> Bool {
        guard let bundle = event.bundleIdentifier else { return false }
        var row = rows[bundle] ?? Row(bundleIdentifier: bundle)
        var crashed = false
        switch event.payload {
        case .spawn:
            row.pid = event.pid
            if let pid = event.pid { row.starts[pid] = event }
            row.launches += 1
        case .spawnFailed(let failure):
            row.lastError = failure.reason
        case .handshakeFailed(let failure):
            row.lastError = "handshake failed: \(failure.reason)"
        case .call(let request) where request.method != "initialize":
            row.callsInFlight += 1
        case .result(let completion) where completion.method != "initialize":
            row.callsInFlight = max(0, row.callsInFlight - 1)
            row.calls += 1
            row.peakFootprintBytes = Self.larger(row.peakFootprintBytes, completion.footprintBytes)
        case .error(let completion) where completion.method != "initialize":
            row.callsInFlight = max(0, row.callsInFlight - 1)
            row.calls += 1
            row.peakFootprintBytes = Self.larger(row.peakFootprintBytes, completion.footprintBytes)
            row.lastError = completion.reason
        case .deadlineMiss(let miss) where miss.method != "initialize":
            row.callsInFlight = max(0, row.callsInFlight - 1)
            row.calls += 1
            row.deadlineMisses += 1
            row.lastError = event.message
        case .memoryKill, .hung:
            row.lastError = event.message
        case .exit(let exit):
            if let pid = event.pid { row.starts[pid] = nil }
            if row.pid == event.pid {
                row.pid = row.starts.keys.max()
                row.callsInFlight = 0
            }
            row.peakFootprintBytes = Self.larger(row.peakFootprintBytes, exit.footprintBytes)
            if Self.isCrash(exit.cause) {
                row.crashes += 1
                row.lastError = exit.description
                crashed = true
            }
        default:
            break
        }
        rows[bundle] = row
        return crashed
    }

    /// Whether an exit is one the host did not ask for: the process died, hit its memory limit,
    /// hung or broke the protocol past repair. Idle stops and requested stops are not crashes.
    public static func isCrash(_ cause: ExtensionExit.Cause) -> Bool {
        switch cause {
        case .ended, .memoryLimit: return true
        case .stoppedByHost(let reason):
            switch reason {
            case .requested, .idle: return false
            case .handshakeFailed, .hung, .beyondRepair, .closedResponseChannel, .containerQuota: return true
            }
        }
    }

    private static func larger(_ a: Int?, _ b: Int?) -> Int? {
        switch (a, b) {
        case (nil, nil): return nil
        case (let a?, nil): return a
        case (nil, let b?): return b
        case (let a?, let b?): return max(a, b)
        }
    }
}
