/// One line of `wallet-host ps` (`processes.list`'s result, one per extension).
public struct ProcessListing: Sendable, Codable, Equatable {
    /// `warm` (kept warm, no call), `busy` (a call in flight), `idle` (running, stopped after the
    /// idle timeout), `stopped`, `crash-looping`.
    public var state: String
    /// The extension's bundle identifier.
    public var bundleIdentifier: String
    /// Its process, when it runs.
    public var pid: Int32?
    /// Its `.appex`.
    public var path: String?
    /// Calls answered since the daemon started.
    public var calls: Int
    /// Calls that missed their deadline.
    public var deadlineMisses: Int
    /// The highest footprint a call saw.
    public var peakFootprintBytes: Int?
    /// Launches since the daemon started.
    public var launches: Int
    /// Exits the daemon did not ask for.
    public var crashes: Int
    /// How long the running process has run.
    public var uptimeSeconds: Double?
    /// The last failure, in a sentence.
    public var lastError: String?

    /// Creates a listing from its values; the daemon makes them from its process table.
    public init(state: String, bundleIdentifier: String, pid: Int32?, path: String?, calls: Int, deadlineMisses: Int,
                peakFootprintBytes: Int?, launches: Int, crashes: Int, uptimeSeconds: Double?, lastError: String?) {
        self.state = state
        self.bundleIdentifier = bundleIdentifier
        self.pid = pid
        self.path = path
        self.calls = calls
        self.deadlineMisses = deadlineMisses
        self.peakFootprintBytes = peakFootprintBytes
        self.launches = launches
        self.crashes = crashes
        self.uptimeSeconds = uptimeSeconds
        self.lastError = lastError
    }
}
