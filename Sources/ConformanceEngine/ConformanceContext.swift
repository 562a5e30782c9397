import Foundation
import Synchronization
import WalletBundleInspection
import WalletHostRuntime
import WalletWire

/// What every check of one conformance run shares: the bundle, its environment, fresh runners
/// on demand, every event of the run, and what earlier checks learned (the methods the
/// extension implements, the results of the shape checks).
public final class ConformanceContext: Sendable {
    /// The extension under test, as it loaded.
    public let bundle: ExtensionBundle
    /// What the profile set up for the run.
    public let environment: ConformanceEnvironment
    /// How the engine runs, with the host configuration every runner starts from.
    public let options: ConformanceOptions
    /// Every event of the run, from every runner, oldest first.
    public let events: EventCollector
    private let exercises: [String: MethodExercise]
    private let state = Mutex(State())

    private struct State {
        var initialize: InitializeResult?
        var results: [String: MethodResult] = [:]
        var hungMethod: String?
        var runners: [ExtensionRunner] = []
        var memoryDeaths: [String] = []
    }

    init(bundle: ExtensionBundle, environment: ConformanceEnvironment, options: ConformanceOptions, exercises: [MethodExercise]) {
        self.bundle = bundle
        self.environment = environment
        self.options = options
        self.events = EventCollector(forwardingTo: options.configuration.events)
        self.exercises = Dictionary(exercises.map { ($0.method, $0) }) { first, _ in first }
    }

    /// The extension point the bundle plugs into.
    public var point: ExtensionPoint { bundle.extensionPoint }
    /// The executable's file name, as messages name the process.
    public var executableName: String { bundle.executableURL.lastPathComponent }

    // MARK: Runners

    /// A runner that will start a fresh process, with its own event collector (which also
    /// forwards to ``events``). The engine stops every runner at the end of the run; a check
    /// should stop its own when it is done, so that the next check starts clean.
    /// - Parameter judgingExit: True for the check that judges how the process exits: it gets
    ///   the configured stop grace. Every other runner escalates to signals after 100 ms, so
    ///   that an extension that ignores `exit` costs each check a fraction of a second, not two.
    public func makeRunner(judgingExit: Bool = false) -> (ExtensionRunner, EventCollector) {
        let collector = EventCollector(forwardingTo: events)
        var configuration = options.configuration
        if !judgingExit { configuration.stopGrace = min(configuration.stopGrace, .milliseconds(100)) }
        configuration.events = collector
        configuration.services = environment.services
        configuration.idleTimeout = nil
        let runner = ExtensionRunner(descriptor: ExtensionDescriptor(bundle: bundle, appGroups: environment.appGroups),
                                     configuration: configuration)
        state.withLock { $0.runners.append(runner) }
        return (runner, collector)
    }

    /// Calls `method` with JSON parameters, any JSON result, and this call's own deadline.
    public func call(_ runner: ExtensionRunner, _ method: String, params: JSONValue, deadline: Duration?) async
        -> CallOutcome<JSONValue> {
        let outcome = await runner.call(method, params: params, resultType: JSONValue.self, deadline: deadline)
        if case .failure(let error) = outcome.result, error.kind == .memoryLimitExceeded {
            state.withLock { $0.memoryDeaths.append(error.message) }
        }
        return outcome
    }

    /// Stops every runner made in this run.
    func stopAllRunners() async {
        let runners = state.withLock { $0.runners }
        for runner in runners { await runner.stop(reason: "conformance run finished") }
    }

    // MARK: What earlier checks learned

    /// The `initialize` result of the handshake check, nil when it failed (or has not run).
    public var initialize: InitializeResult? { state.withLock { $0.initialize } }

    func recordHandshake(_ result: InitializeResult) {
        state.withLock { $0.initialize = result }
    }

    /// Whether the extension listed `method` in `initialize`.
    public func implements(_ method: String) -> Bool {
        initialize?.methods.contains(method) ?? false
    }

    /// A result of the documented shape from the shape check of `method`, if it gave one.
    public func result(of method: String) -> MethodResult? {
        state.withLock { $0.results[method] }
    }

    func recordResult(_ result: MethodResult) {
        state.withLock { $0.results[result.method] = result }
    }

    /// The method a shape check found hung (no answer past its deadline and grace), if any.
    var hungMethod: String? { state.withLock { $0.hungMethod } }

    func recordHung(_ method: String) {
        state.withLock { if $0.hungMethod == nil { $0.hungMethod = method } }
    }

    /// Calls that failed because the extension exceeded its memory limit, as the host reported them.
    var memoryDeaths: [String] { state.withLock { $0.memoryDeaths } }

    // MARK: Methods and limits

    /// How to call `method`: the profile's exercise, or `{}` with any JSON result.
    public func exercise(for method: String) -> MethodExercise {
        exercises[method] ?? .untyped(method)
    }

    /// The deadline in force for `method`: the configuration's override, else the point's.
    public func limit(for method: String) -> Duration? {
        options.configuration.deadline(for: method, at: point)
    }

    /// How long a check waits for a call it is not timing: the method's deadline, at least
    /// ``ConformanceOptions/minimumPatience`` and at most ``ConformanceOptions/callCap``.
    public func patience(for method: String) -> Duration {
        let limit = limit(for: method) ?? options.callCap
        return min(max(limit, options.minimumPatience), options.callCap)
    }

    /// The method that probes cancellation and concurrency: of the point's methods the extension
    /// implements and that need no earlier call, the one with the shortest deadline.
    public var probeMethod: String? {
        point.methods.map(\.name)
            .filter { implements($0) && exercise(for: $0).standalone }
            .min { (limit(for: $0) ?? .seconds(1_000_000)) < (limit(for: $1) ?? .seconds(1_000_000)) }
    }

    /// The parameters of a standalone method's exercise (`{}` when it has none).
    func standaloneParameters(_ method: String) -> JSONValue {
        if case .ready(let params) = exercise(for: method).parameters(self) { return params }
        return .object([:])
    }

    // MARK: After a missed deadline

    /// How long launch and handshake took on `collector`'s process, waiting for the handshake
    /// to finish if it has not yet (at most the handshake timeout, and 3 s); nil if it did not.
    public func handshakeMilliseconds(in collector: EventCollector) async -> Double? {
        let wait = min(options.configuration.handshakeTimeout, .seconds(3))
        let event = await collector.firstEvent(within: wait) { [.handshake, .handshakeFailed, .exit].contains($0.kind) }
        guard case .handshake(let handshake)? = event?.payload else { return nil }
        return handshake.milliseconds
    }

    /// What an extension did after one of its calls missed the deadline.
    public enum Aftermath: Sendable {
        /// It answered late (`acknowledged`: with -32002 to the cancel), this long after the ask.
        case answered(milliseconds: Double, acknowledged: Bool)
        /// The host declared it hung and stopped it.
        case hung(HostEvent.Hung)
        /// The process ended.
        case ended(String)
        /// Nothing happened within the grace.
        case silent
    }

    /// Waits up to the hang grace (and a little more) for what follows a missed deadline of
    /// `method`, looking at `collector`'s events from `index` on.
    public func aftermath(of method: String, in collector: EventCollector, since index: Int) async -> Aftermath {
        let wait = options.configuration.hangGrace + .milliseconds(300)
        let event = await collector.firstEvent(from: index, within: wait) { event in
            switch event.payload {
            case .lateCompletion(let late), .cancelAcknowledged(let late): return late.method == method
            case .hung, .exit: return true
            default: return false
            }
        }
        switch event?.payload {
        case .lateCompletion(let late)?: return .answered(milliseconds: late.milliseconds, acknowledged: false)
        case .cancelAcknowledged(let late)?: return .answered(milliseconds: late.milliseconds, acknowledged: true)
        case .hung(let hung)?: return .hung(hung)
        case .exit(let exit)?: return .ended(exit.description)
        default: return .silent
        }
    }
}
