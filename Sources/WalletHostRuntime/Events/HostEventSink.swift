/// Receives events and extension output. Implementations must be cheap and thread-safe:
/// they are called from the I/O reactor's thread, which every extension shares, and from any
/// thread that starts or ends a call.
public protocol HostEventSink: Sendable {
    func record(_ event: HostEvent)
    /// One line an extension wrote to stdout or stderr.
    func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String)
    /// Makes ready now whatever the extension's output will need (a log file opens on the first
    /// line otherwise): for a caller that counts the host's descriptors before and after a load.
    func prepareOutput(bundleIdentifier: String)
}

extension HostEventSink {
    public func recordOutput(bundleIdentifier: String, pid: Int32, stream: String, line: String) {}
    public func prepareOutput(bundleIdentifier: String) {}
}

/// Discards everything.
public struct NullEventSink: HostEventSink {
    public init() {}
    public func record(_ event: HostEvent) {}
}
