import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// What `wallet-host doctor` says of one capability of this machine.
struct DoctorFinding: Encodable, Sendable {
    /// How it stands: nothing to do, something works less well than it could, or something fails.
    enum Verdict: String, Encodable, Sendable {
        case ok, warning, problem
    }

    /// The capability's short name (`sandbox`, `python3`).
    let capability: String
    let verdict: Verdict
    /// What the machine allows and what follows from it, as a sentence.
    let detail: String
    /// What to do about it; nil when the verdict is ok.
    let fix: String?

    init(_ capability: String, _ verdict: Verdict, _ detail: String, fix: String? = nil) {
        self.capability = capability
        self.verdict = verdict
        self.detail = detail
        self.fix = fix
    }
}

/// Each capability `wallet-host doctor` looks at, asked of the kernel and the file system the
/// way the host itself asks (the sandbox's own probes, the control groups' own setup).
enum DoctorChecks {
    /// The daemon's default `--max-clients`, each client one descriptor, plus room for its warm extensions' pipes.
    static let descriptorsForTheDaemon: rlim_t = 4096 + 1024

    /// Every finding, in the order they are printed.
    static func all() -> [DoctorFinding] {
        let namespacesRefusal = SandboxStatus.probe()
        return [namespaces(refusal: namespacesRefusal), sandboxInit(namespacesAllowed: namespacesRefusal == nil),
                syscallFilter(namespacesAllowed: namespacesRefusal == nil), controlGroups(), openFiles(), chromium(),
                python3(path: ProcessInfo.processInfo.environment["PATH"] ?? ""), stateDirectory()]
            + [cpu(), containerQuota(), mountTable()] + network()
    }

    static func namespaces(refusal: String?) -> DoctorFinding {
        let root = geteuid() == 0
        guard let refusal else {
            return DoctorFinding("sandbox", .ok, "the kernel allows the sandbox's PID, mount and IPC namespaces"
                                 + (root ? "" : " in a user namespace") + ": --sandbox auto runs every extension sandboxed")
        }
        let fix = root
            ? "in a container, run it with --privileged, or with --cap-add SYS_ADMIN --security-opt seccomp=unconfined --security-opt apparmor=unconfined"
            : "allow unprivileged user namespaces (sysctl kernel.unprivileged_userns_clone=1 on Debian, "
                + "kernel.apparmor_restrict_unprivileged_userns=0 on Ubuntu 24.04, user.max_user_namespaces above 0), or run as root"
        return DoctorFinding("sandbox", .warning, "\(refusal): --sandbox auto runs extensions unsandboxed, with a warning "
                             + "(they can read the state directory and other issuers' App Groups); --sandbox required fails",
                             fix: fix)
    }

    static func sandboxInit(namespacesAllowed: Bool) -> DoctorFinding {
        let path = SandboxPlan.defaultInitPath
        guard access(path, X_OK) != 0 else {
            return DoctorFinding("sandbox-init", .ok, "the sandbox's init is beside wallet-host: \(path)")
        }
        let fix = "install with scripts/install PREFIX, which puts it beside PREFIX/bin/wallet-host "
            + "(swift build builds it beside .build/debug/wallet-host)"
        guard namespacesAllowed else {
            return DoctorFinding("sandbox-init", .warning, "\(path) is missing; nothing needs it while the kernel refuses "
                                 + "the sandbox's namespaces, but every sandboxed launch would fail where it allows them", fix: fix)
        }
        return DoctorFinding("sandbox-init", .problem, "\(path) is missing or not executable: every sandboxed launch fails "
                             + "(--sandbox auto and required); only --sandbox off runs extensions", fix: fix)
    }

    static func syscallFilter(namespacesAllowed: Bool) -> DoctorFinding {
        guard let refusal = SyscallFilterProbe.refusal() else {
            return DoctorFinding("seccomp", .ok, "seccomp filters work: the sandbox denies extensions nested namespaces, "
                                 + "ptrace, mount and keyctl")
        }
        let fix = "run the host where seccomp filters are allowed (a kernel with CONFIG_SECCOMP_FILTER; a container's "
            + "seccomp profile must allow prctl(PR_SET_SECCOMP)), or run extensions with --sandbox off"
        guard namespacesAllowed else {
            return DoctorFinding("seccomp", .warning, "\(refusal); nothing needs it while the sandbox cannot run", fix: fix)
        }
        return DoctorFinding("seccomp", .problem, "\(refusal): the sandbox's init cannot install its filter, so every "
                             + "sandboxed launch fails", fix: fix)
    }

    static func controlGroups() -> DoctorFinding {
        guard let reason = ControlGroups.unavailableReason else {
            return DoctorFinding("control-groups", .ok, "cgroup v1 memory and pids groups for each extension "
                                 + "(--control-groups auto): its memory limit and 256 tasks count everything it runs, "
                                 + "and an out-of-memory kill is reported as one")
        }
        let root = geteuid() == 0
        let fallback = "the host counts an extension's processes one by one for its memory limit and bounds its tasks "
            + "with RLIMIT_NPROC" + (root ? "" : " in its own user namespace")
        let fix = root
            ? "mount the cgroup v1 memory and pids hierarchies (mount -t cgroup -o memory none /sys/fs/cgroup/memory, "
                + "likewise pids); a cgroup v2-only system needs systemd.unified_cgroup_hierarchy=0 at boot"
            : "run the host as root with the cgroup v1 memory and pids hierarchies mounted"
        return DoctorFinding("control-groups", .warning, "\(reason): --control-groups auto falls back: \(fallback)", fix: fix)
    }

    static func openFiles() -> DoctorFinding {
        var limit = rlimit()
        guard getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return DoctorFinding("open-files", .warning, "getrlimit(RLIMIT_NOFILE) failed: \(String(cString: strerror(errno)))")
        }
        let hard = limit.rlim_max == rlim_t.max ? "unlimited" : String(limit.rlim_max)
        let detail = "open files: soft limit \(limit.rlim_cur), hard \(hard); wallet-host serve raises its soft limit to the hard one"
        guard limit.rlim_max < descriptorsForTheDaemon else {
            return DoctorFinding("open-files", .ok, detail + ", enough for its 4096 clients (--max-clients) and its warm extensions")
        }
        return DoctorFinding("open-files", .warning, detail + ", fewer than its 4096 clients (--max-clients) and its warm "
                             + "extensions' pipes need (\(descriptorsForTheDaemon)); a client past it is refused, a launch fails",
                             fix: "raise the hard limit before starting serve: LimitNOFILE=65536 in its systemd unit "
                                + "(Examples/systemd/wallet-host.service), ulimit -Hn 65536 as root; or give serve a lower --max-clients")
    }

    /// Where the tests and scripts/report-screenshots look for Chromium.
    static let chromiumPaths = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]

    static func chromium() -> DoctorFinding {
        if let path = chromiumPaths.first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
            return DoctorFinding("chromium", .ok, "\(path): the tests open the --html pages in it and "
                                 + "scripts/report-screenshots renders them")
        }
        return DoctorFinding("chromium", .warning, "no Chromium at \(chromiumPaths.joined(separator: " or ")): the tests that "
                             + "open the --html pages in a browser are skipped and scripts/report-screenshots cannot run "
                             + "(the pages are still written)",
                             fix: "scripts/install-dependencies as root, or apt-get install chromium")
    }

    /// The `python3` that `#!/usr/bin/env python3` finds on `path`, and whether it is the interpreter or a shim.
    static func python3(path: String) -> DoctorFinding {
        let found = path.split(separator: ":").map { "\($0)/python3" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let found else {
            return DoctorFinding("python3", .warning, "no python3 on PATH: Python issuers (#!/usr/bin/env python3, "
                                 + "Examples/PythonIssuer) cannot start",
                                 fix: "apt-get install python3 (scripts/install-dependencies does as root)")
        }
        let resolved = URL(fileURLWithPath: found).resolvingSymlinksInPath().path
        let shown = resolved == found ? found : "\(found) (\(resolved))"
        let file = FileHandle(forReadingAtPath: resolved)
        let head = (try? file?.read(upToCount: 256)) ?? Data()
        try? file?.close()
        let isELF = head.starts(with: [0x7f, 0x45, 0x4c, 0x46])
        let inShims = (found + "/" + resolved).split(separator: "/").contains { $0 == "shims" }
        guard !isELF || inShims else {
            return DoctorFinding("python3", .ok, "python3 on PATH is the interpreter, \(shown): a Python extension starts it directly")
        }
        let what: String
        if !isELF, head.starts(with: Array("#!".utf8)) {
            let interpreterLine = String(decoding: head.prefix { $0 != 0x0a }, as: UTF8.self)
            what = "a script (\(interpreterLine)), not the interpreter"
        } else if !isELF {
            what = "not an ELF executable"
        } else {
            what = "in a shims directory"
        }
        return DoctorFinding("python3", .warning, "python3 on PATH is \(shown), \(what): a shim (pyenv's) starts before "
                             + "Python on every launch, so a Python extension's cold status takes over 170 ms and Wallet "
                             + "would not list the app",
                             fix: "put the real interpreter first on the host's PATH (with pyenv: "
                                + "PATH=\"$(dirname \"$(pyenv which python3)\"):$PATH\"), or /usr/bin before the shims")
    }
}
