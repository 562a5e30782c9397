import Foundation
import WalletWire

/// How the host runs extensions. Defaults are Wallet's; every limit can be overridden for experiments.
public struct HostConfiguration: Sendable {
    /// Method name -> deadline, replacing the extension point's default.
    public var deadlineOverrides: [String: Duration] = [:]
    /// Replaces the extension point's memory limit (bytes) when set.
    public var memoryLimitOverride: Int?
    /// After a missed deadline, how long a silent extension has before it is declared hung and stopped.
    public var hangGrace: Duration = .seconds(1)
    /// Each step of the stop sequence waits this long before escalating.
    public var stopGrace: Duration = .milliseconds(500)
    /// How the host stops an extension that is beyond use (hung, beyond repair, fd 4 closed):
    /// no protocol, `SIGTERM` to the group, then `SIGKILL`.
    public var abandonTeardown: Teardown = .abandon(grace: .milliseconds(200))
    /// How much of each process's output (stdout, stderr, `$/log`) is logged; past it, one notice.
    public var outputLimit = OutputLimit()
    /// Protocol violations on fd 4 tolerated before an extension is declared beyond repair.
    public var violationBudget = 32
    /// How long an extension that closed fd 4 may keep running before the host stops it (the
    /// exit that usually follows a closed fd 4 gives the better report).
    public var closedChannelGrace: Duration = .milliseconds(100)
    /// A warm process with no call for this long is stopped; nil keeps it until the host stops.
    public var idleTimeout: Duration? = .seconds(30)
    /// How often footprint is sampled while a call is in flight.
    public var sampleInterval: Duration = .milliseconds(5)
    /// The longest a launch + `initialize` may take when no call deadline is shorter.
    public var handshakeTimeout: Duration = .seconds(10)
    /// Host environment variables passed through to extensions; everything else is dropped.
    public var environmentAllowList: [String] = ["PATH", "HOME", "LANG", "LC_ALL", "TZ", "TMPDIR", "USER",
                                                     "SWIFT_BACKTRACE"]
    /// Where events and extension output go.
    public var events: any HostEventSink = NullEventSink()
    /// Answers extensions' requests of the host; nil answers every request with "method not found".
    public var services: (any HostServiceProvider)?
    /// Whether extensions run in the sandbox (see ``SandboxPlan`` for what they see there).
    public var sandbox = SandboxMode.auto
    /// The sandbox init; nil: `WalletSandboxInit` beside the running executable.
    public var sandboxInitPath: String?
    /// Whether launches of one extension copy a sandbox root built once (a root host; about 1 ms
    /// per cold launch) rather than each building its own (``SandboxPlan/reusesRoot``).
    public var sandboxReusesRoot = true
    /// What one extension may keep in its App Group containers together (1 GiB by default;
    /// `--container-quota`): checked while it runs, and no single file may grow past it
    /// (`RLIMIT_FSIZE`). Nil: unbounded.
    public var containerQuotaBytes: Int? = 1 << 30
    /// Replaces the `RLIMIT_NPROC` of ``ProcessLimits`` when set.
    public var processLimitOverride: Int?
    /// Whether each launch gets control groups of its own that count and bound everything the
    /// extension runs (see ``ControlGroupMode``).
    public var controlGroups = ControlGroupMode.auto
    /// A sandboxed extension's network (`--network`, ``NetworkMode``): by default a namespace of
    /// its own whose only way out is the host's egress proxy, each connection an event.
    public var network = NetworkMode.proxy
    /// Where the egress proxy connects extensions (`--allow-network`); empty: any public address.
    public var networkPolicy = NetworkPolicy()
    /// The clock deadlines and timers (the idle stop) read: the system's, or a test's ``TestClock``.
    public var clock: any HostClock = SystemHostClock()
    /// The loop that watches the extensions' processes (pipes, exits, and the timers of their
    /// deadlines, samples and idle polls), whose clock the calls' times are on; nil: the host's
    /// shared loop (``HostLoop/shared()``) on the system's clock. A test gives a loop on its
    /// ``TestClock`` (the same as ``clock``) and advances the clock instead of waiting.
    public var loop: HostLoop?

    /// The clock the calls' times and the I/O reactor read: the ``loop``'s.
    var callClock: any HostClock { loop?.clock ?? SystemHostClock() }

    public init() {}

    /// The stop sequence: `shutdown`, `exit`, `SIGTERM`, each given ``stopGrace``, then `SIGKILL`.
    public var teardown: Teardown { .standard(grace: stopGrace) }

    /// The host environment's allow-listed variables plus the App Group containers
    /// (`WALLET_EXTENSION_APP_GROUPS`, a JSON object): what every process the host starts gets,
    /// extensions and containing apps alike.
    public func baseEnvironment(appGroups: [String: String]) -> [String: String] {
        let host = ProcessInfo.processInfo.environment
        var environment: [String: String] = [:]
        for key in environmentAllowList {
            if let value = host[key] { environment[key] = value }
        }
        let groups = (try? JSONSerialization.data(withJSONObject: appGroups, options: [.sortedKeys]))
            .map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        environment[WireEnvironment.appGroups] = groups
        if let preferences = AppGroupPreferences.home(appGroups: appGroups) {
            environment[AppGroupPreferences.configurationHomeVariable] = preferences
        }
        return environment
    }

    /// The deadline for `method` at `point`, override first.
    public func deadline(for method: String, at point: ExtensionPoint) -> Duration? {
        deadlineOverrides[method] ?? point.method(named: method)?.deadline
    }

    /// The memory limit in bytes at `point`, override first.
    public func memoryLimit(at point: ExtensionPoint) -> Int {
        memoryLimitOverride ?? point.memoryLimitBytes
    }

    /// Parses `method=250ms`, `status=1s`, `passEntries=20000` (milliseconds when no unit). The
    /// method must be one of `registry`'s, the duration as ``DurationText`` reads it.
    /// - Throws: ``ConfigurationError`` naming the bad text, or the unknown method and the known ones.
    public static func parseDeadline(_ text: String, registry: ExtensionPointRegistry)
        throws(ConfigurationError) -> (method: String, deadline: Duration) {
        let parts = text.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, !parts[0].isEmpty else {
            throw ConfigurationError("--deadline expects METHOD=DURATION such as status=250ms or passEntries=2s, not \"\(text)\"")
        }
        let method = parts[0]
        let known = registry.methodNames
        guard known.contains(method) else {
            throw ConfigurationError("--deadline: \"\(method)\" is not a method of any extension point; "
                                     + "the methods are \(known.joined(separator: ", "))")
        }
        switch DurationText.parse(parts[1]) {
        case .success(let deadline):
            return (method, deadline)
        case .failure(let problem):
            throw ConfigurationError(DurationText.sentence(problem, option: "--deadline \(method)", text: parts[1],
                                                           example: "250ms or 2s"))
        }
    }

    /// Parses `250ms`, `2s`, `1.5s`, `300` (milliseconds), from zero to ``DurationText/maximum``;
    /// nil for anything else (``DurationText/parse(_:option:example:allowsZero:)`` says why).
    public static func parseDuration(_ text: String) -> Duration? {
        try? DurationText.parse(text).get()
    }

    /// Parses a size: `55MB`, `60MiB`, `2GiB`, `1048576` (bytes). MB is taken as MiB, as the kernel reports it.
    /// - Returns: nil for anything else, NaN, infinity, a negative size or one over ``largestMemoryLimit``.
    public static func parseBytes(_ text: String) -> Int? {
        let upper = text.uppercased().trimmingCharacters(in: .whitespaces)
        for (suffix, scale) in [("GIB", 1 << 30), ("GB", 1 << 30), ("G", 1 << 30), ("MIB", 1 << 20), ("MB", 1 << 20), ("M", 1 << 20),
                                ("KIB", 1 << 10), ("KB", 1 << 10), ("K", 1 << 10)] {
            if upper.hasSuffix(suffix), let value = Double(upper.dropLast(suffix.count)), value.isFinite, value >= 0 {
                let bytes = value * Double(scale)
                return bytes <= Double(largestMemoryLimit) ? Int(bytes) : nil
            }
        }
        return Int(upper).flatMap { $0 <= largestMemoryLimit ? $0 : nil }
    }

    /// The largest size `parseBytes` accepts (a memory limit, a container quota): 1 TiB.
    public static let largestMemoryLimit = 1 << 40
}

/// A configuration value that cannot be used, with a sentence saying why.
public struct ConfigurationError: Error, Sendable, Equatable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}
