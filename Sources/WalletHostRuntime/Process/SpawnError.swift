import CWalletSpawn
#if canImport(Glibc)
import Glibc
#endif

/// Why a spawn failed: the errno and the step in the child (or parent) that failed.
public struct SpawnError: Error, Sendable, CustomStringConvertible {
    public var executablePath: String
    public var errno: Int32
    public var stage: SpawnStage
    /// The step that failed was the sandbox's (the kernel refused namespaces or mounts, or the init is missing).
    public var inSandboxSetup = false

    /// `--sandbox required` where the sandbox cannot be had.
    static func sandboxRequired(_ executablePath: String, _ reason: String) -> SpawnError {
        var error = SpawnError(executablePath: executablePath, errno: 0, stage: .sandbox)
        error.requiredReason = reason
        return error
    }

    /// A sandboxed launch when the kernel's probe could not tell whether it allows the sandbox
    /// (``SandboxProbeAnswer/undetermined(reason:)``): it fails, sandbox required or not.
    static func sandboxUndetermined(_ executablePath: String, _ reason: String) -> SpawnError {
        var error = SpawnError(executablePath: executablePath, errno: 0, stage: .sandbox, inSandboxSetup: true)
        error.explanation = reason
        return error
    }

    var requiredReason: String?
    /// Replaces "STAGE failed: ERRNO" when the errno says nothing useful.
    var explanation: String?

    /// What failed, without the executable: "execve failed: No such file or directory".
    public var failure: String {
        if let requiredReason { return "the sandbox is required (--sandbox required) but unavailable: \(requiredReason)" }
        if let explanation { return explanation }
        return "\(stage) failed: \(String(cString: strerror(errno))) (errno \(errno))"
    }

    public var description: String {
        "cannot launch \(executablePath): \(failure)"
    }
}

/// The step of a launch that failed: one of the spawn shim's (``wh_spawn_stage``, kept typed
/// from C to the message), or one of the sandbox init's as the host saw it.
public enum SpawnStage: Sendable, Hashable, CustomStringConvertible {
    case pipe, clone, setpgid, deathSignal, parentCheck, setrlimit, dup2, chdir, execve
    case sandboxNamespaces, sandboxUserMap, sandboxMounts, sandboxUserSwitch, sandboxContainerPath, controlGroups
    /// The sandbox's init: missing, ended without a word, or reported what the host does not know.
    case sandboxInit
    /// The sandbox init's own setup (non-dumpable, system call filter).
    case sandboxInitSetup
    /// Executing the sandbox init at this path.
    case sandboxInitExecution(path: String)
    /// `--sandbox required` where the sandbox cannot be had.
    case sandbox
    /// A stage the shim did not name.
    case spawn
    /// The sandbox's network namespace (entering it, `lo`, the egress proxy's listener).
    case sandboxNetwork

    /// The stage the spawn shim reported as `code` (a ``wh_spawn_stage``).
    init(code: Int32) {
        switch wh_spawn_stage(rawValue: .init(truncatingIfNeeded: code)) {
        case wh_spawn_stage_pipe: self = .pipe
        case wh_spawn_stage_fork: self = .clone
        case wh_spawn_stage_setpgid: self = .setpgid
        case wh_spawn_stage_pdeathsig: self = .deathSignal
        case wh_spawn_stage_parent_gone: self = .parentCheck
        case wh_spawn_stage_rlimit: self = .setrlimit
        case wh_spawn_stage_dup: self = .dup2
        case wh_spawn_stage_chdir: self = .chdir
        case wh_spawn_stage_exec: self = .execve
        case wh_spawn_stage_namespaces: self = .sandboxNamespaces
        case wh_spawn_stage_user_map: self = .sandboxUserMap
        case wh_spawn_stage_mount: self = .sandboxMounts
        case wh_spawn_stage_credentials: self = .sandboxUserSwitch
        case wh_spawn_stage_link: self = .sandboxContainerPath
        case wh_spawn_stage_cgroup: self = .controlGroups
        case wh_spawn_stage_network: self = .sandboxNetwork
        default: self = .spawn
        }
    }

    /// The step as messages name it ("execve", "sandbox mounts").
    public var description: String {
        switch self {
        case .pipe: "pipe"
        case .clone: "clone"
        case .setpgid: "setsid"
        case .deathSignal: "prctl(PR_SET_PDEATHSIG)"
        case .parentCheck: "parent check"
        case .setrlimit: "setrlimit"
        case .dup2: "dup2"
        case .chdir: "chdir"
        case .execve: "execve"
        case .sandboxNamespaces: "sandbox namespaces (clone)"
        case .sandboxUserMap: "sandbox user namespace map"
        case .sandboxMounts: "sandbox mounts"
        case .sandboxUserSwitch: "sandbox user switch"
        case .sandboxContainerPath: "sandbox container path"
        case .controlGroups: "moving into the extension's control groups (tasks)"
        case .sandboxInit: "sandbox init"
        case .sandboxInitSetup: "sandbox init (non-dumpable, Landlock scopes, system call filter)"
        case .sandboxInitExecution(let path): "execve of the sandbox init \(path)"
        case .sandbox: "sandbox"
        case .spawn: "spawn"
        case .sandboxNetwork: "sandbox network namespace (setns, lo, the egress proxy's listener)"
        }
    }
}
