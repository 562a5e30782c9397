import Foundation
import Wallet
import WalletHostRuntime
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// A hostile extension for the sandbox tests: a script as the `.appex` executable, beside a
/// state directory laid out as the host lays it out (passes, device settings, logs, its own
/// App Group container and another issuer's), another issuer's bundle, and a token unique to
/// the test that the processes it starts carry on their command lines.
struct HostileExtension {
    let root: TemporaryDirectory
    /// Digits only: it goes into `sleep 600.TOKEN` and file names.
    let token = String(UInt32.random(in: 100_000...999_999))

    var state: URL { root.url.appendingPathComponent("state") }
    var ownContainer: URL { state.appendingPathComponent("AppGroups/group.com.example.hostile") }
    var otherContainer: URL { state.appendingPathComponent("AppGroups/group.com.example.otherbank") }
    var bundle: URL { root.url.appendingPathComponent("Apps/Hostile.app/PlugIns/Hostile.appex") }
    var otherBundle: URL { root.url.appendingPathComponent("Apps/OtherBank.app/PlugIns/Other.appex") }
    var executable: URL { bundle.appendingPathComponent("hostile") }

    /// Lays out the directories and writes `script` (its first line the interpreter) as the executable.
    /// - Parameter parent: where its directories go (default: the system's temporary directory).
    init(script: String, in parent: URL? = nil) throws {
        root = try TemporaryDirectory(prefix: "wallet-host-hostile", in: parent)
        let manager = FileManager.default
        for directory in [state.appendingPathComponent("AppGroups"), bundle, otherBundle, state.appendingPathComponent("logs")] {
            try manager.createDirectory(at: directory, withIntermediateDirectories: true)
        }
        // As the host makes them: owned by the sandbox's user when the host is root.
        for container in [ownContainer, otherContainer] { try ContainerDirectory.ensure(container.path) }
        try Data(#"[{"id":"OTHER-BANK-CARD"}]"#.utf8).write(to: state.appendingPathComponent("passes.json"))
        try Data(#"{"watchPaired":true}"#.utf8).write(to: state.appendingPathComponent("device.json"))
        try Data("{\"kind\":\"spawn\"}\n".utf8).write(to: state.appendingPathComponent("logs/events.jsonl"))
        try Data("other bank's secret".utf8).write(to: otherContainer.appendingPathComponent("secret.txt"))
        try Data("<plist/>".utf8).write(to: otherBundle.appendingPathComponent("Info.plist"))
        let text = script
            .replacingOccurrences(of: "@TOKEN@", with: token)
            .replacingOccurrences(of: "@OWN@", with: ownContainer.path)
            .replacingOccurrences(of: "@STATE@", with: state.path)
            .replacingOccurrences(of: "@OTHER@", with: otherContainer.path)
            .replacingOccurrences(of: "@OTHERBUNDLE@", with: otherBundle.path)
            .replacingOccurrences(of: "@BUNDLE@", with: bundle.path)
        try Data(text.utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
    }

    /// Changes the script (for placeholders only the test knows).
    func rewriteScript(_ change: (String) -> String) throws {
        let text = try String(contentsOf: executable, encoding: .utf8)
        try Data(change(text).utf8).write(to: executable)
        _ = chmod(executable.path, 0o755)
    }

    /// The extension's runner: no idle stop, short stop steps, the sandbox as `mode`.
    /// - Parameter principalClass: the class the script's process says it registers (one that
    ///   execs a real extension names that extension's).
    func runner(sandbox mode: SandboxMode, principalClass: String = "", configure: (inout HostConfiguration) -> Void = { _ in })
        -> (ExtensionRunner, EventCollector) {
        let events = EventCollector()
        var configuration = HostConfiguration()
        configuration.events = events
        configuration.idleTimeout = nil
        configuration.stopGrace = .milliseconds(200)
        configuration.handshakeTimeout = .seconds(5)
        configuration.sandbox = mode
        configure(&configuration)
        let point = ExtensionPointRegistry.wallet.points[0]
        let descriptor = ExtensionDescriptor(bundlePath: bundle.path, executablePath: executable.path,
                                             bundleIdentifier: "com.example.hostile.Hostile", containingAppBundleIdentifier: "",
                                             principalClass: principalClass, point: point,
                                             appGroups: ["group.com.example.hostile": ownContainer.path])
        return (ExtensionRunner(descriptor: descriptor, configuration: configuration), events)
    }

    /// A file the extension wrote into its own container, once it is there.
    func containerFile(_ name: String) -> String? {
        (try? String(contentsOf: ownContainer.appendingPathComponent(name), encoding: .utf8))?
            .trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every live process (not a zombie) whose command line holds the test's token.
    var processesWithToken: [pid_t] { Self.processes(containing: token) }

    /// Every live process running the script (an interpreter with its path on the command line).
    var processesRunningScript: [pid_t] { Self.processes(containing: executable.path) }

    static func processes(containing text: String) -> [pid_t] {
        guard let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc") else { return [] }
        return entries.compactMap { entry -> pid_t? in
            guard let pid = pid_t(entry),
                  let commandLine = try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(entry)/cmdline")),
                  String(decoding: commandLine, as: UTF8.self).contains(text),
                  let status = try? String(contentsOfFile: "/proc/\(entry)/stat", encoding: .utf8),
                  !status.contains(") Z ") else { return nil }
            return pid
        }
    }

    /// Kills what a test that expected survivors left running, and removes the files.
    func cleanUp() {
        for pid in processesWithToken + processesRunningScript { _ = kill(pid, SIGKILL) }
        root.remove()
    }
}

extension HostEvent {
    /// A spawn event's payload; nil for every other kind, so that a test reading it fails on the
    /// wrong kind instead of skipping its assertions.
    var spawn: HostEvent.Spawn? {
        guard case .spawn(let spawn) = payload else { return nil }
        return spawn
    }
}
