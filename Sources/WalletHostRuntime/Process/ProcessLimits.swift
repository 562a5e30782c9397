#if canImport(Glibc)
import Glibc
#endif

/// Resource limits applied in the child before exec (DESIGN §5, §8).
public struct ProcessLimits: Sendable, Hashable {
    /// `RLIMIT_DATA`: the hard memory limit. Counts heap and thread stacks, not file mappings.
    public var dataBytes: Int?
    /// `RLIMIT_STACK`. 1 MiB so that thread stacks do not eat the data limit: with 8 MiB stacks
    /// the seventh thread fails under 55 MiB and libdispatch then hangs silently.
    public var stackBytes: Int? = 1024 * 1024
    /// `RLIMIT_CORE`: no core files.
    public var coreBytes: Int? = 0
    /// `RLIMIT_NOFILE`.
    public var openFiles: Int? = 256
    /// `RLIMIT_NPROC`, counted per user (threads included) in the process's user namespace.
    /// Where the extension's tasks are bounded otherwise, by a `pids` control group of its own
    /// (``ExtensionControlGroup``), the runner leaves it as inherited (nil): every sandboxed
    /// extension of a root host runs as one user, and a limit per user would let one issuer's
    /// fork bomb stop every other issuer's launch.
    public var processes: Int? = 4096
    /// `RLIMIT_FSIZE`: the largest file the process may write (SIGXFSZ past it). Set to the
    /// container quota, so that no single file outgrows it between two checks of the container.
    public var fileBytes: Int?
    /// `RLIMIT_NPROC` for a process that gets a user namespace of its own (the sandbox of a host
    /// that is not root): the kernel (5.14 and later) counts it per user namespace, so there it
    /// bounds this extension's tasks alone. Nil: ``processes``.
    public var processesInOwnUserNamespace: Int? = ProcessLimits.tasksPerExtension

    /// Added to the process's nice value (`setpriority`) before exec; nil leaves it. Set where no
    /// `cpu` control group of its own shares the CPU out (``niceWithoutCPUGroup``).
    public var niceIncrement: Int?

    /// The nice increment of issuer code without a `cpu` control group: 10 (weight 110 against
    /// the host's 1024), so that the host's threads (the daemon answering another issuer, the
    /// operator's shell) come first. It cannot share the CPU fairly between issuers: processes
    /// of the same nice share it by their count.
    public static let niceWithoutCPUGroup = 10

    /// The most tasks (processes and threads) one extension may have at once: its `pids`
    /// control group's `pids.max`, or ``processesInOwnUserNamespace``.
    public static let tasksPerExtension = 256

    public init(dataBytes: Int?) {
        self.dataBytes = dataBytes
    }

    /// The limits of an issuer's code, an extension or its containing app alike: `memoryLimitBytes`
    /// as `RLIMIT_DATA`, the container quota as `RLIMIT_FSIZE` (no single file outgrows it between
    /// two checks of the containers), and `RLIMIT_NPROC` left as inherited where a `pids` control
    /// group of its own bounds its tasks (every sandboxed process of a root host runs as one user:
    /// a limit per user would let one issuer's fork bomb stop every other issuer's launch).
    /// - Parameter processLimitOverride: replaces both `RLIMIT_NPROC`s when set (`HostConfiguration`).
    /// - Parameter hasCPUGroup: whether a `cpu` control group of its own shares the CPU out;
    ///   without one it is niced (``niceWithoutCPUGroup``).
    public static func issuerCode(memoryLimitBytes: Int, containerQuotaBytes: Int?, hasControlGroup: Bool,
                                  hasCPUGroup: Bool = false, processLimitOverride: Int? = nil) -> ProcessLimits {
        var limits = ProcessLimits(dataBytes: memoryLimitBytes)
        limits.fileBytes = containerQuotaBytes
        if hasControlGroup { limits.processes = nil }
        if !hasCPUGroup { limits.niceIncrement = niceWithoutCPUGroup }
        if let processes = processLimitOverride {
            limits.processes = processes
            limits.processesInOwnUserNamespace = processes
        }
        return limits
    }

    /// The `RLIMIT_NPROC` to set: ``processesInOwnUserNamespace`` when the process has a user
    /// namespace of its own, else ``processes``.
    public func processLimit(ownUserNamespace: Bool) -> Int? {
        ownUserNamespace ? processesInOwnUserNamespace ?? processes : processes
    }
}

/// Everything needed to start one extension (or containing app) process.
public struct SpawnConfiguration: Sendable {
    /// Absolute path of the executable.
    public var executablePath: String
    public var arguments: [String]
    /// The complete environment (the caller builds the allow-list).
    public var environment: [String: String]
    public var workingDirectory: String?
    public var limits: ProcessLimits
    /// Non-nil: run in this sandbox (through the sandbox init, as PID 1 of a new PID namespace).
    public var sandbox: SandboxPlan?
    /// With a sandbox: fail instead of running unsandboxed where the kernel refuses it.
    public var sandboxRequired = false
    /// `cgroup.procs` files (open for writing, close-on-exec) of the control groups the process
    /// is to run in: it moves itself there right after clone, before it runs anything.
    public var controlGroupDescriptors: [Int32] = []
    /// With a sandbox whose network is ``NetworkMode/proxy``: whose connections the egress proxy
    /// serves (policy, events). Nil: no destination but the host's own is refused, and nothing is logged.
    public var egress: EgressSession?

    public init(executablePath: String, arguments: [String] = [], environment: [String: String],
                workingDirectory: String?, limits: ProcessLimits, sandbox: SandboxPlan? = nil) {
        self.executablePath = executablePath
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.limits = limits
        self.sandbox = sandbox
    }
}
