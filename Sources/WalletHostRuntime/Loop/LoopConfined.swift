/// A value only the host loop's thread touches: no lock, and (in debug builds) a precondition
/// that the caller runs on the loop. The loop's work, handlers and timers change it; other
/// threads post to the loop (``HostLoop/execute(_:)``) instead.
public final class LoopConfined<Value>: @unchecked Sendable {
    /// The loop whose thread owns the value.
    public let loop: HostLoop
    private var storage: Value

    /// Confines `value` to `loop`'s thread (made on any thread, touched only on the loop's).
    public init(_ value: Value, to loop: HostLoop) {
        self.loop = loop
        storage = value
    }

    /// The value (loop's thread).
    public var value: Value {
        get {
            assert(loop.inLoop, "loop-confined state read off the host loop's thread")
            return storage
        }
        _modify {
            assert(loop.inLoop, "loop-confined state changed off the host loop's thread")
            yield &storage
        }
    }
}
