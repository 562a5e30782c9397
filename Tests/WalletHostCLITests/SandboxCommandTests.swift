import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// `--sandbox auto|required|off` through the real `wallet-host`: what each report says, and what
/// happens where the kernel refuses the namespaces (made so with `unshare`: a user namespace
/// whose limit of PID namespaces is 0).
@Suite("wallet-host --sandbox", .serialized, .timeLimit(.minutes(3)))
struct SandboxCommandTests {
    /// Runs `wallet-host` where no PID namespace can be created.
    static let refusingLauncher = ["/usr/bin/unshare", "--user", "--map-root-user", "/bin/sh", "-c",
                                   #"echo 0 > /proc/sys/user/max_pid_namespaces && exec "$0" "$@""#]

    /// Whether `unshare` can make that user namespace here.
    static let canRefuse: Bool = {
        guard FileManager.default.isExecutableFile(atPath: refusingLauncher[0]) else { return false }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: refusingLauncher[0])
        process.arguments = Array(refusingLauncher.dropFirst()) + ["/bin/true"]
        guard (try? process.run()) != nil else { return false }
        process.waitUntilExit()
        return process.terminationStatus == 0
    }()

    static func call(_ options: [String], launcher: [String] = []) throws -> WalletHostRun {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-sandbox-cli")
        defer { try? FileManager.default.removeItem(at: state) }
        return try WalletHostCommand.run(["call", ExampleBundles.testHelperAppex.path, "status", "--state", state.path,
                                          "--deadline", "status=10s"] + options, launcher: launcher)
    }

    @Test("call says the extension ran sandboxed, in text and in --json",
          .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
    func callReportsTheSandbox() throws {
        let text = try Self.call([])
        #expect(text.status == 0, "\(text.standardError)")
        #expect(text.standardOutput.contains("\nsandbox: on (own PID namespace"), "\(text.standardOutput)")
        #expect(!text.standardError.contains("warning"))
        let json = try Self.call(["--json"]).json()
        #expect(json["sandboxed"] as? Bool == true)
    }

    @Test("the conformance report notes that the extension ran sandboxed",
          .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
    func conformNotesTheSandbox() throws {
        let state = TemporaryDirectory.uniqueURL(prefix: "wallet-host-sandbox-cli")
        defer { try? FileManager.default.removeItem(at: state) }
        let run = try WalletHostCommand.run(["conform", ExampleBundles.testHelperAppex.path, "--state", state.path])
        #expect(run.standardOutput.contains("  note: sandbox: on (own PID namespace"), "\(run.standardOutput)")
    }

    @Test("--sandbox off runs unsandboxed without a warning, and the report says so")
    func offIsReported() throws {
        let run = try Self.call(["--sandbox", "off"])
        #expect(run.status == 0, "\(run.standardError)")
        #expect(run.standardOutput.contains("sandbox: OFF for every launch (--sandbox off)"), "\(run.standardOutput)")
        #expect(!run.standardError.contains("warning"))
        #expect(try Self.call(["--sandbox", "off", "--json"]).json()["sandboxed"] as? Bool == false)
    }

    @Test("--sandbox with another value is a usage error naming it")
    func badValueIsAUsageError() throws {
        let run = try Self.call(["--sandbox", "sometimes"])
        #expect(run.status == 2)
        #expect(run.standardError.contains(#"--sandbox expects auto, required or off, not "sometimes""#), "\(run.standardError)")
    }

    @Test("--container-quota takes a size or none, and names anything else", arguments: ["abc", "-5MB", "1e300GB"])
    func containerQuotaValues(text: String) throws {
        let run = try Self.call(["--container-quota", text])
        #expect(run.status == 2)
        #expect(run.standardError.contains("--container-quota expects a size such as 256MB or 2GiB, or none, not \"\(text)\""),
                "\(run.standardError)")
        #expect(try Self.call(["--container-quota", "none"]).status == 0)
        #expect(try Self.call(["--container-quota", "2GiB"]).status == 0)
    }

    @Test("--control-groups takes auto or off, and names anything else")
    func controlGroupValues() throws {
        let run = try Self.call(["--control-groups", "sometimes"])
        #expect(run.status == 2)
        #expect(run.standardError.contains(#"--control-groups expects auto or off, not "sometimes""#), "\(run.standardError)")
        #expect(try Self.call(["--control-groups", "off"]).status == 0)
    }

    @Test("where the kernel refuses namespaces, auto runs unsandboxed with one warning and says so in the report",
          .enabled(if: canRefuse, "needs unshare and user namespaces"))
    func autoFallsBackWithOneWarning() throws {
        let run = try Self.call([], launcher: Self.refusingLauncher)
        #expect(run.status == 0, "\(run.standardError)")
        let warnings = run.standardError.components(separatedBy: "warning: extensions run without the sandbox").count - 1
        #expect(warnings == 1, "\(run.standardError)")
        #expect(run.standardError.contains("sandbox namespaces (clone) failed"), "\(run.standardError)")
        #expect(run.standardOutput.contains("sandbox: OFF for every launch (sandbox namespaces (clone) failed"),
                "\(run.standardOutput)")
    }

    @Test("where the kernel refuses namespaces, required fails the launch naming the refusal",
          .enabled(if: canRefuse, "needs unshare and user namespaces"))
    func requiredFails() throws {
        let run = try Self.call(["--sandbox", "required"], launcher: Self.refusingLauncher)
        #expect(run.status == 1)
        #expect(run.standardOutput.contains("the sandbox is required (--sandbox required) but unavailable: "
                                            + "sandbox namespaces (clone) failed"), "\(run.standardOutput)")
    }

    @Test("a host that is not root sandboxes in a user namespace",
          .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "runs wallet-host as nobody with setpriv"),
          .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
    func unprivilegedHostUsesAUserNamespace() throws {
        let launcher = ["/usr/bin/setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"]
        let probe = Process()
        probe.executableURL = URL(fileURLWithPath: launcher[0])
        probe.arguments = Array(launcher.dropFirst()) + ["/usr/bin/test", "-x", BuildProducts.walletHost.path]
        try probe.run()
        probe.waitUntilExit()
        try #require(probe.terminationStatus == 0, "nobody cannot reach the built wallet-host")
        let run = try Self.call(["--json", "--sandbox", "required"], launcher: launcher)
        #expect(run.status == 0, "\(run.standardOutput) \(run.standardError)")
        #expect(try run.json()["sandboxed"] as? Bool == true)
    }
}
