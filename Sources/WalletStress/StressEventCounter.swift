import Synchronization
import WalletHostRuntime

/// Counts the host's events during a stress run and passes on everything but the per-call
/// chatter (`call`, `result`, `service`): at thousands of calls a second the log keeps what a
/// person reads (spawns, misses, late completions, kills, exits) without a line per call.
public final class StressEventCounter: HostEventSink {
    private let counts = Mutex<[HostEvent.Kind: Int]>([:])
    private let next: (any HostEventSink)?
    private static let notForwarded: Set<HostEvent.Kind> = [.call, .result, .service]

    /// - Parameter next: Where the events worth a line go (the run's event log), if anywhere.
    public init(forwardingTo next: (any HostEventSink)? = nil) {
        self.next = next
    }

    public func record(_ event: HostEvent) {
        counts.withLock { $0[event.kind, default: 0] += 1 }
        if let next, !Self.notForwarded.contains(event.kind) { next.record(event) }
    }

    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {
        next?.recordOutput(bundleIdentifier: bundleIdentifier, pid: pid, stream: stream, line: line)
    }

    public func prepareOutput(bundleIdentifier: String) {
        next?.prepareOutput(bundleIdentifier: bundleIdentifier)
    }

    /// How many events of `kind` were recorded.
    public func count(_ kind: HostEvent.Kind) -> Int {
        counts.withLock { $0[kind, default: 0] }
    }
}
