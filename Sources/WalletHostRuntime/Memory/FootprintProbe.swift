/// A process's footprint (resident anonymous memory, what Jetsam counts), sampled on demand by
/// tools outside the supervisor, such as `wallet-host stress`, which reads it after every call.
///
/// It keeps the process's `/proc/PID/statm` open, so a sample is one `pread`.
public final class FootprintProbe: Sendable {
    /// The process sampled.
    public let pid: Int32
    private let reader: FootprintReader

    /// Opens the process's statm; samples are nil when it cannot be opened.
    /// - Parameter pid: The process to sample.
    public init(pid: Int32) {
        self.pid = pid
        reader = FootprintReader(pid: pid)
    }

    /// The footprint in bytes now, or nil when the process is gone.
    public func sample() -> Int? {
        reader.sample()
    }
}
