import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host doctor`: one line per capability, each verdict what the machine really allows,
/// checked against independent probes and against machines made worse on purpose (a shim first
/// on PATH, a low open-file limit, a wallet-host without its sandbox init, an unprivileged user).
@Suite("wallet-host doctor", .serialized, .timeLimit(.minutes(2)))
struct DoctorCommandTests {
    /// The findings of `doctor --json`, by capability, run through `launcher` (env, prlimit, setpriv).
    /// `executable` runs in place of the built wallet-host (the launcher's shell drops the built one's path, `$0`).
    private func findings(launcher: [String] = [], executable: URL? = nil) throws -> (status: Int32, byName: [String: [String: Any]]) {
        let instead = executable.map { ["/bin/sh", "-c", "exec '\($0.path)' \"$@\""] } ?? []
        let run = try WalletHostCommand.run(["doctor", "--json"], launcher: launcher + instead)
        let document = try run.json()
        let findings = try #require(document["findings"] as? [[String: Any]], "\(run.standardOutput)")
        let byName = Dictionary(uniqueKeysWithValues: findings.map { ($0["capability"] as? String ?? "", $0) })
        return (run.status, byName)
    }

    private static func verdict(_ finding: [String: Any]?) -> String? { finding?["verdict"] as? String }

    @Test func eachCapabilityIsOneLineWithItsVerdictAndTheFix() throws {
        let run = try WalletHostCommand.run(["doctor"])
        let lines = run.standardOutput.split(separator: "\n").map(String.init)
        let capabilities = ["sandbox", "sandbox-init", "seccomp", "control-groups", "open-files", "chromium", "python3", "state", "cpu",
                            "container-quota", "mount-table", "landlock", "network"]
        #expect(lines.count == capabilities.count + 1, "\(run.standardOutput)")
        for (line, capability) in zip(lines, capabilities) {
            let words = line.split(separator: " ", maxSplits: 2).map(String.init)
            #expect(["ok", "warning", "problem"].contains(words.first ?? ""), "\(line)")
            #expect(words.dropFirst().first == capability, "\(line)")
            #expect(words.first == "ok" || line.contains(". Fix: "), "a warning or problem without its fix: \(line)")
        }
        #expect(lines.last?.hasPrefix("\(capabilities.count) capabilities: ") == true)
        #expect(run.status == (lines.contains { $0.hasPrefix("problem") } ? 1 : 0))
    }

    @Test func theContainerQuotaVerdictSaysWhetherTheKernelEnforcesIt() throws {
        let result = try findings()
        let finding = result.byName["container-quota"]
        let kernel = geteuid() == 0 && access("/dev/loop-control", R_OK | W_OK) == 0
            && ["/usr/sbin/mkfs.ext4", "/sbin/mkfs.ext4"].contains { FileManager.default.isExecutableFile(atPath: $0) }
        #expect(Self.verdict(finding) == (kernel ? "ok" : "warning"))
        let detail = finding?["detail"] as? String ?? ""
        #expect(detail.contains(kernel ? "the kernel enforces the quota" : "the container quota is a walk"), "\(detail)")
    }

    @Test func theMountTableFindingCountsTheMountsAndSaysWhatACopyCosts() throws {
        let finding = try #require(try findings().byName["mount-table"])
        let detail = finding["detail"] as? String ?? ""
        // "N mounts, M of them App Group images (K left mounted by processes that are gone); ... takes X ms here"
        let numbers = detail.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        let mounts = try #require(numbers.first, "\(detail)")
        // Read to the end by hand: String(contentsOfFile:) returns a /proc file's first few kilobytes.
        let table = FileHandle(forReadingAtPath: "/proc/self/mountinfo").flatMap { try? $0.readToEnd() } ?? Data()
        let now = String(decoding: table, as: UTF8.self).split(separator: "\n").count
        // Other tests mount and unmount meanwhile: about the same table.
        #expect(mounts > 0 && abs(mounts - now) < 200, "\(detail) (this process sees \(now))")
        #expect(detail.contains(" App Group images ("), "\(detail)")
        if KernelNamespaces.available { #expect(detail.contains(" ms here"), "\(detail)") }
        let leftovers = numbers.count > 2 ? numbers[2] : 0
        #expect(Self.verdict(finding) == (mounts >= 500 || leftovers > 0 ? "warning" : "ok"), "\(detail)")
    }

    @Test func theSandboxVerdictsAgreeWithTheKernel() throws {
        let result = try findings()
        // KernelNamespaces asks unshare(1), not the host's own probe.
        #expect(Self.verdict(result.byName["sandbox"]) == (KernelNamespaces.available ? "ok" : "warning"))
        // The built wallet-host has its init beside it.
        #expect(Self.verdict(result.byName["sandbox-init"]) == "ok")
        // Where the sandbox runs (its tests pass here), its init installs the seccomp filter.
        if KernelNamespaces.available { #expect(Self.verdict(result.byName["seccomp"]) == "ok") }
        #expect(Self.verdict(result.byName["chromium"]) == (Chromium.path != nil ? "ok" : "warning"))
        // Where the sandbox runs, each extension gets a network namespace with the proxy's listener in it.
        if KernelNamespaces.available { #expect(Self.verdict(result.byName["network"]) == "ok") }
        // Landlock's scopes are a kernel's (ABI 6); without them the network namespace still holds.
        #expect(["ok", "warning"].contains(Self.verdict(result.byName["landlock"]) ?? ""))
    }

    @Test func aWalletHostCopiedWithoutItsSandboxInitIsAProblemThatNamesTheInstallScript() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-alone")
        defer { directory.remove() }
        let copy = directory.url.appendingPathComponent("wallet-host")
        try FileManager.default.copyItem(at: BuildProducts.walletHost, to: copy)
        let result = try findings(executable: copy)
        let finding = try #require(result.byName["sandbox-init"])
        #expect((finding["detail"] as? String)?.contains(directory.url.appendingPathComponent("WalletSandboxInit").path) == true)
        #expect((finding["fix"] as? String)?.contains("scripts/install PREFIX") == true)
        #expect(Self.verdict(finding) == (KernelNamespaces.available ? "problem" : "warning"))
        #expect(result.status == (KernelNamespaces.available ? 1 : 0))
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
    func aPythonShimFirstOnPathIsAWarningAndTheInterpreterIsOK() throws {
        let directory = try TemporaryDirectory(prefix: "wallet-host-python")
        defer { directory.remove() }
        let shims = directory.url.appendingPathComponent("shims"), real = directory.url.appendingPathComponent("bin")
        for folder in [shims, real] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        // pyenv's shim is a bash script that starts pyenv; this one starts the interpreter.
        let shim = shims.appendingPathComponent("python3")
        try Data("#!/usr/bin/env bash\nexec /usr/bin/python3 \"$@\"\n".utf8).write(to: shim)
        chmod(shim.path, 0o755)
        try FileManager.default.createSymbolicLink(atPath: real.appendingPathComponent("python3").path, withDestinationPath: "/usr/bin/python3")

        let shimmed = try #require(try findings(launcher: ["/usr/bin/env", "PATH=\(shims.path):/usr/bin:/bin"]).byName["python3"])
        #expect(Self.verdict(shimmed) == "warning")
        let detail = shimmed["detail"] as? String ?? ""
        #expect(detail.contains(shim.path) && detail.contains("a script (#!/usr/bin/env bash)") && detail.contains("170 ms"), "\(detail)")
        #expect((shimmed["fix"] as? String)?.contains("PATH") == true)

        let direct = try #require(try findings(launcher: ["/usr/bin/env", "PATH=\(real.path):/usr/bin:/bin"]).byName["python3"])
        #expect(Self.verdict(direct) == "ok", "\(direct)")

        let missing = try #require(try findings(launcher: ["/usr/bin/env", "PATH=\(directory.url.path)"]).byName["python3"])
        #expect(Self.verdict(missing) == "warning")
        #expect((missing["detail"] as? String)?.hasPrefix("no python3 on PATH") == true)
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/prlimit"), "needs prlimit (util-linux)"))
    func aLowOpenFileLimitIsAWarningForTheDaemon() throws {
        let low = try #require(try findings(launcher: ["/usr/bin/prlimit", "--nofile=512:512"]).byName["open-files"])
        #expect(Self.verdict(low) == "warning")
        #expect((low["detail"] as? String)?.contains("hard 512") == true)
        #expect((low["fix"] as? String)?.contains("LimitNOFILE") == true)
        // The limit this test runs under, when it is high enough (raising it takes a privilege containers withhold).
        var limit = rlimit()
        if getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit) == 0, limit.rlim_max >= 4096 + 1024 {
            let high = try #require(try findings().byName["open-files"])
            #expect(Self.verdict(high) == "ok", "\(high)")
        }
    }

    @Test(.enabled(if: geteuid() == 0 && RunAsNobody.isPossible, "as root, runs doctor as nobody"))
    func anUnprivilegedUserGetsNoControlGroupsAndIsToldTheFallback() throws {
        let asRoot = try findings().byName["control-groups"]
        let asNobody = try #require(try findings(launcher: RunAsNobody.setpriv).byName["control-groups"])
        #expect(Self.verdict(asNobody) == "warning")
        #expect((asNobody["detail"] as? String)?.contains("RLIMIT_NPROC") == true, "\(asNobody)")
        #expect((asNobody["fix"] as? String)?.contains("root") == true)
        // Root here has the v1 hierarchies when the host's own limits tests use them.
        if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/memory/cgroup.procs"),
           FileManager.default.fileExists(atPath: "/sys/fs/cgroup/pids/cgroup.procs") {
            #expect(Self.verdict(asRoot) == "ok", "\(String(describing: asRoot))")
        }
    }

    /// Issue 31, breaks 3 and 14: a state directory others may write to is refused by every command; doctor says so.
    @Test func aStateDirectoryOthersMayWriteToIsAProblem() throws {
        let shared = try TemporaryDirectory(prefix: "wallet-host-doctor-state")
        defer { shared.remove() }
        #expect(chmod(shared.url.path, 0o1777) == 0)
        let refused = try findings(launcher: ["/usr/bin/env", "WALLET_HOST_STATE=\(shared.url.path)"])
        #expect(Self.verdict(refused.byName["state"]) == "problem")
        #expect((refused.byName["state"]?["detail"] as? String)?.contains("refusing the state directory \(shared.url.path)") == true)
        #expect(refused.status == 1)
        let fresh = try findings(launcher: ["/usr/bin/env", "WALLET_HOST_STATE=\(shared.url.path)/new"])
        #expect(Self.verdict(fresh.byName["state"]) == "ok", "\(String(describing: fresh.byName["state"]))")
    }

    @Test("the cpu controller: shares and an idle quota as root with the cpu hierarchy; nice only for another user",
          .enabled(if: geteuid() == 0 && RunAsNobody.isPossible, "as root, runs doctor as nobody"))
    func cpuControllerIsReported() throws {
        let asNobody = try #require(try findings(launcher: RunAsNobody.setpriv).byName["cpu"])
        #expect(Self.verdict(asNobody) == "warning")
        #expect((asNobody["detail"] as? String)?.contains("nice +10") == true, "\(asNobody)")
        if FileManager.default.fileExists(atPath: "/sys/fs/cgroup/cpu/cgroup.procs") {
            let asRoot = try #require(try findings().byName["cpu"])
            #expect(Self.verdict(asRoot) == "ok", "\(asRoot)")
            #expect((asRoot["detail"] as? String)?.contains("cpu.cfs_quota_us") == true, "\(asRoot)")
        }
    }
}
