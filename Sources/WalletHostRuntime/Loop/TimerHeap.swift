/// The host loop's timers: a binary min-heap of deadlines, earliest first, equal deadlines in
/// the order they were scheduled. A cancelled timer's work is dropped at once; its heap entry is
/// skipped when it comes to the top (and the heap is rebuilt when such entries pile up).
struct TimerHeap {
    private struct Entry {
        let deadline: ContinuousClock.Instant
        let id: UInt64

        func comesBefore(_ other: Entry) -> Bool {
            deadline < other.deadline || (deadline == other.deadline && id < other.id)
        }
    }

    private var entries: [Entry] = []
    private var work: [UInt64: @Sendable () -> Void] = [:]
    private var lastID: UInt64 = 0

    /// Timers scheduled and neither run nor cancelled.
    var count: Int { work.count }

    /// Adds a timer. - Returns: its id, for ``cancel(_:)``.
    mutating func schedule(at deadline: ContinuousClock.Instant, _ body: @escaping @Sendable () -> Void) -> UInt64 {
        lastID += 1
        work[lastID] = body
        entries.append(Entry(deadline: deadline, id: lastID))
        siftUp(entries.count - 1)
        return lastID
    }

    /// Cancels a timer. - Returns: false when it already ran or was cancelled.
    @discardableResult
    mutating func cancel(_ id: UInt64) -> Bool {
        guard work.removeValue(forKey: id) != nil else { return false }
        if entries.count > 64 && entries.count > work.count * 2 { rebuild() }
        return true
    }

    /// The deadline of the earliest timer still scheduled.
    mutating func earliestDeadline() -> ContinuousClock.Instant? {
        dropCancelledTop()
        return entries.first?.deadline
    }

    /// Takes out the earliest timer if its deadline is at or before `now`.
    mutating func popDue(now: ContinuousClock.Instant) -> (@Sendable () -> Void)? {
        dropCancelledTop()
        guard let top = entries.first, top.deadline <= now else { return nil }
        removeTop()
        return work.removeValue(forKey: top.id)
    }

    private mutating func dropCancelledTop() {
        while let top = entries.first, work[top.id] == nil { removeTop() }
    }

    private mutating func removeTop() {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return }
        entries[0] = last
        siftDown(0)
    }

    private mutating func rebuild() {
        entries.removeAll { work[$0.id] == nil }
        for index in stride(from: entries.count / 2 - 1, through: 0, by: -1) { siftDown(index) }
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entries[child].comesBefore(entries[parent]) else { return }
            entries.swapAt(child, parent)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            let left = parent * 2 + 1
            let right = left + 1
            var first = parent
            if left < entries.count && entries[left].comesBefore(entries[first]) { first = left }
            if right < entries.count && entries[right].comesBefore(entries[first]) { first = right }
            guard first != parent else { return }
            entries.swapAt(parent, first)
            parent = first
        }
    }
}
