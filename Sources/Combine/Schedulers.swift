import Dispatch
import Foundation
import Synchronization

/// Where and when work runs (`Scheduler`): dispatch queues, run loops, operation queues.
///
/// The subset `receive(on:)` needs: running an action as soon as the scheduler can. Time-based
/// scheduling (`schedule(after:)`, `debounce`, `throttle`) is not here.
public protocol Scheduler {
    /// Options for scheduling an action.
    associatedtype SchedulerOptions
    /// Runs `action` on the scheduler as soon as it can.
    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void)
}

extension DispatchQueue: Scheduler {
    /// Options for a dispatch queue (`DispatchQueue.SchedulerOptions`).
    public struct SchedulerOptions: Sendable {
        /// The quality of service of the work.
        public var qos: DispatchQoS
        public init(qos: DispatchQoS = .unspecified) { self.qos = qos }
    }

    /// Runs `action` asynchronously on the queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let action = UncheckedSendable(action)
        async(qos: options?.qos ?? .unspecified) { action.value() }
    }
}

extension RunLoop: Scheduler {
    /// Options for a run loop (`RunLoop.SchedulerOptions`): none.
    public struct SchedulerOptions: Sendable {}

    /// Runs `action` on the run loop. The main run loop is the main queue: on Linux an
    /// extension's main thread serves the main queue (`dispatchMain()`), not a run loop.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if self === RunLoop.main {
            DispatchQueue.main.schedule(options: nil, action)
        } else {
            let action = UncheckedSendable(action)
            perform { action.value() }
        }
    }
}

extension OperationQueue: Scheduler {
    /// Options for an operation queue (`OperationQueue.SchedulerOptions`): none.
    public struct SchedulerOptions: Sendable {}

    /// Adds `action` to the queue; the main operation queue is the main queue.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if self === OperationQueue.main {
            DispatchQueue.main.schedule(options: nil, action)
        } else {
            let action = UncheckedSendable(action)
            addOperation { action.value() }
        }
    }
}

/// Runs actions at once, on the caller's thread (`ImmediateScheduler`).
public struct ImmediateScheduler: Scheduler, Sendable {
    public typealias SchedulerOptions = Never
    /// The one immediate scheduler.
    public static let shared = ImmediateScheduler()
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) { action() }
}

extension Publisher {
    /// Delivers values and the completion on `scheduler` (`receive(on:options:)`), in order.
    /// Once the subscription is cancelled, nothing more is delivered, also what was already
    /// on its way to the scheduler.
    public func receive<S: Scheduler>(on scheduler: S, options: S.SchedulerOptions? = nil) -> AnyPublisher<Output, Failure> {
        AnyPublisher { receive in
            let isCancelled = CancellationFlag()
            let upstream = self.subscribeEvents { event in
                scheduler.schedule(options: options) {
                    if !isCancelled.value { receive(event) }
                }
            }
            return AnyCancellable {
                isCancelled.set()
                upstream.cancel()
            }
        }
    }
}

/// Set once a subscription is cancelled; read wherever its deliveries run.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)
    var value: Bool { flag.load(ordering: .acquiring) }
    func set() { flag.store(true, ordering: .releasing) }
}

/// A value carried across a `@Sendable` boundary to run where its owner said (a scheduler's
/// thread), as Combine's closures are.
struct UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
