import Synchronization

/// Whether the host's I/O reactor polls instead of sleeping for a while after each of its turns
/// (`wallet-host serve --busy-poll`): it then finds the next answer of an extension without a
/// wake-up, which on a virtual machine costs tens of microseconds (a vCPU woken from halt).
/// The price is a core kept busy while calls keep coming, and for the window after the last.
/// Off (nil) by default: a host then spends no processor time waiting.
public enum ReactorBusyPolling {
    private static let windowNanoseconds = Atomic<Int64>(0)

    /// The longest a busy poll may be asked to last.
    public static let maximum: Duration = .milliseconds(100)

    /// How long the reactor polls after a turn before it sleeps; nil: it sleeps at once.
    public static var window: Duration? {
        get {
            let nanoseconds = windowNanoseconds.load(ordering: .relaxed)
            return nanoseconds > 0 ? .nanoseconds(nanoseconds) : nil
        }
        set {
            let clamped = newValue.map { min($0, maximum) } ?? .zero
            let nanoseconds = clamped.components.seconds * 1_000_000_000 + clamped.components.attoseconds / 1_000_000_000
            windowNanoseconds.store(max(0, nanoseconds), ordering: .relaxed)
        }
    }
}
