/// Tasks waiting, each for at most its own timeout, for something another thread will report:
/// a process's exit, an event that matches. Each waiter is resumed exactly once: with the value
/// it waited for, or with nil when its time runs out or its task is cancelled.
///
/// The owner keeps this value inside its own lock, beside the state the waiters look at, so that
/// checking "has it happened?" and starting to wait are one step; ``wait(id:within:begin:abandon:)``
/// does the timing.
public struct TimedWaiters<Value: Sendable, Condition: Sendable> {
    public typealias Continuation = CheckedContinuation<Value?, Never>

    private var waiting: [UInt64: (condition: Condition, continuation: Continuation)] = [:]
    /// Waiters whose time ran out (or whose task was cancelled) before they began to wait.
    private var abandoned: Set<UInt64> = []
    private var lastID: UInt64 = 0

    public init() {}

    /// A new waiter's id.
    public mutating func makeID() -> UInt64 {
        lastID += 1
        return lastID
    }

    /// Adds a waiter, unless its time already ran out.
    /// - Returns: false when the waiter was abandoned first: resume it with nil.
    public mutating func add(_ id: UInt64, condition: Condition, continuation: Continuation) -> Bool {
        guard abandoned.remove(id) == nil else { return false }
        waiting[id] = (condition, continuation)
        return true
    }

    /// Takes the waiter `id` out (to resume it with nil); remembers the id if it has not begun to wait.
    public mutating func abandon(_ id: UInt64) -> Continuation? {
        guard let waiter = waiting.removeValue(forKey: id) else {
            abandoned.insert(id)
            return nil
        }
        return waiter.continuation
    }

    /// Takes out every waiter whose condition `satisfied` accepts.
    ///
    /// Called for every event a host records, mostly with nobody waiting: that case returns at
    /// once. (No key path here: in a generic type a key path literal is instantiated at run time,
    /// on every call, by looking its types up by name.)
    public mutating func take(where satisfied: (Condition) -> Bool) -> [Continuation] {
        guard !waiting.isEmpty else { return [] }
        var ready: [Continuation] = []
        for (id, waiter) in waiting where satisfied(waiter.condition) {
            waiting[id] = nil
            ready.append(waiter.continuation)
        }
        return ready
    }

    /// Takes out every waiter, and forgets the abandoned ids (nothing will wait any more).
    public mutating func takeAll() -> [Continuation] {
        defer {
            waiting.removeAll()
            abandoned.removeAll()
        }
        return waiting.values.map { $0.continuation }
    }
}

extension TimedWaiters {
    /// Waits for waiter `id`, at most `timeout`: `begin` (under the owner's lock) resumes the
    /// continuation at once if the value is already there, else adds it to the owner's waiters;
    /// `abandon` (also the owner's) resumes it with nil when the time runs out or the task is
    /// cancelled, if nothing resumed it first.
    public static func wait(id: UInt64, within timeout: Duration, begin: (Continuation) -> Void,
                     abandon: @escaping @Sendable (UInt64) -> Void) async -> Value? {
        let timer = Task {
            try? await Task.sleep(for: timeout)
            guard !Task.isCancelled else { return }
            abandon(id)
        }
        defer { timer.cancel() }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in begin(continuation) }
        } onCancel: {
            abandon(id)
        }
    }
}
