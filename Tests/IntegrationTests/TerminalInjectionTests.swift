import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 1: an extension run from a terminal opened `/dev/tty` (the host's controlling
/// terminal, which it shared: setpgid but no setsid, and the sandbox bound `/dev/tty`) and pushed
/// a command into the shell's input with `ioctl(TIOCSTI)`. Each test runs the real `wallet-host`
/// at a pseudo-terminal that is its controlling terminal, as an operator's shell would, and reads
/// the terminal's input queue afterwards: whatever the extension pushed would be there.
@Suite("The operator's terminal: an extension cannot type into it", .serialized, .timeLimit(.minutes(3)),
       .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3"), "needs /usr/bin/python3"))
struct TerminalInjectionTests {
    /// The hostile extension: says whether it has a terminal and pushes a command into `/dev/tty`.
    static let hostileScript = """
        #!/usr/bin/python3
        import fcntl, os, sys, termios
        report = []
        for fd in (0, 1, 2):
            try:
                report.append("ttyname%d=%s" % (fd, os.ttyname(fd)))
            except OSError as error:
                report.append("ttyname%d=errno%d" % (fd, error.errno))
        try:
            tty = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
            report.append("devtty=opened")
            for byte in b"echo INJECTED@TOKEN@\\n":
                try:
                    fcntl.ioctl(tty, termios.TIOCSTI, bytes([byte]))
                except OSError as error:
                    report.append("tiocsti=errno%d" % error.errno)
                    break
            else:
                report.append("tiocsti=pushed")
        except OSError as error:
            report.append("devtty=errno%d" % error.errno)
        sys.stderr.write("TTYREPORT " + " ".join(report) + "\\n")
        sys.stderr.flush()
        """

    /// Runs a command at a new pseudo-terminal that is its controlling terminal (its own session,
    /// TIOCSCTTY), with echo and line editing off so that every byte pushed into the terminal's
    /// input stays readable; once it exits, prints what waits in that input as JSON.
    static let terminalDriver = """
        import fcntl, json, os, select, sys, termios, time
        primary, secondary = os.openpty()
        settings = termios.tcgetattr(secondary)
        settings[3] &= ~(termios.ICANON | termios.ECHO)
        settings[6][termios.VMIN] = 0
        settings[6][termios.VTIME] = 0
        termios.tcsetattr(secondary, termios.TCSANOW, settings)
        pid = os.fork()
        if pid == 0:
            os.setsid()
            fcntl.ioctl(secondary, termios.TIOCSCTTY, 0)
            for fd in (0, 1, 2):
                os.dup2(secondary, fd)
            os.closerange(3, 1024)
            os.execv(sys.argv[1], sys.argv[1:])
        output = b""
        deadline = time.monotonic() + 90
        status = None
        while status is None and time.monotonic() < deadline:
            ready, _, _ = select.select([primary], [], [], 0.05)
            if ready:
                try:
                    output += os.read(primary, 65536)
                except OSError:
                    pass
            done, code = os.waitpid(pid, os.WNOHANG)
            if done:
                status = code
        if status is None:
            os.kill(pid, 9)
            os.waitpid(pid, 0)
        time.sleep(0.2)
        injected = b""
        while True:
            chunk = os.read(secondary, 4096)
            if not chunk:
                break
            injected += chunk
        print(json.dumps({"status": status, "injected": injected.decode("latin-1"), "output": output.decode("latin-1")}))
        """

    struct TerminalRun {
        var status: Int?
        /// What waits in the terminal's input: what a shell would read and run next.
        var injected: String
        /// What the program wrote to the terminal.
        var output: String
    }

    /// Runs `command` at a terminal (see ``terminalDriver``).
    static func atTerminal(_ command: [String], in root: TemporaryDirectory) throws -> TerminalRun {
        let driver = root.url.appendingPathComponent("terminal-driver.py")
        try Data(terminalDriver.utf8).write(to: driver)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [driver.path] + command
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any],
                                  "the driver printed \(String(decoding: data, as: UTF8.self))")
        return TerminalRun(status: object["status"] as? Int, injected: object["injected"] as? String ?? "?",
                           output: object["output"] as? String ?? "")
    }

    /// The test helper's bundle with the hostile script (its token filled in) as its executable.
    static func hostileBundle(token: String) throws -> URL {
        let appex = try ExampleBundles.testHelper(mode: "normal")
        let path = appex.appendingPathComponent("TestHelperExt")
        try FileManager.default.removeItem(at: path)
        try Data(hostileScript.replacingOccurrences(of: "@TOKEN@", with: token).utf8).write(to: path)
        _ = chmod(path.path, 0o755)
        return appex
    }

    /// The report line the extension wrote on stderr, as the host logged it.
    static func report(in state: URL) throws -> String {
        let log = try String(contentsOf: state.appendingPathComponent("logs/events.jsonl"), encoding: .utf8)
        let line = try #require(log.split(separator: "\n").first { $0.contains("TTYREPORT") }, "no report in the event log: \(log)")
        let start = try #require(line.range(of: "TTYREPORT"))
        return String(line[start.lowerBound...].prefix { $0 != "\"" })
    }

    /// Runs the hostile extension through `wallet-host call ... status` at a terminal, with
    /// `options`, as `launcher` (empty: as this process's user), and checks that nothing reached
    /// the terminal's input and that the extension had no terminal at all.
    func expectNoInjection(options: [String], launcher: [String] = [], user: uid_t? = nil) throws {
        let token = String(UInt32.random(in: 100_000...999_999))
        let root = try TemporaryDirectory(prefix: "wallet-host-tty")
        defer { root.remove() }
        let appex = try Self.hostileBundle(token: token)
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let state = root.url.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
        if let user {
            _ = chown(root.url.path, user, user)
            _ = chown(state.path, user, user)
        }
        let run = try Self.atTerminal(launcher + [BuildProducts.walletHost.path, "call", appex.path, "status",
                                                  "--state", state.path, "--deadline", "status=20s"] + options, in: root)
        #expect(!run.injected.contains("INJECTED"), "the extension typed into the operator's terminal: \(run.injected.debugDescription)")
        #expect(run.injected.isEmpty, "the terminal's input holds \(run.injected.debugDescription)")
        let report = try Self.report(in: state)
        #expect(!report.contains("devtty=opened"), "the extension opened /dev/tty: \(report)")
        #expect(!report.contains("tiocsti=pushed"), "\(report)")
        for fd in 0...2 { #expect(report.contains("ttyname\(fd)=errno"), "the extension has a terminal on fd \(fd): \(report)") }
        #expect(run.status != nil, "wallet-host did not exit: \(run.output)")
    }

    @Test("a root host's extension, sandboxed or not, has no controlling terminal and pushes nothing into it",
          arguments: ["auto", "off"])
    func rootHost(sandbox: String) throws {
        try expectNoInjection(options: ["--sandbox", sandbox])
    }

    @Test("a host that is not root (its extension in a user namespace) shares no terminal either",
          .enabled(if: geteuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv"),
                   "runs wallet-host as another user with setpriv"),
          .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
    func unprivilegedHost() throws {
        let user: uid_t = 64_001
        try expectNoInjection(options: ["--sandbox", "required"],
                              launcher: ["/usr/bin/setpriv", "--reuid=\(user)", "--regid=\(user)", "--clear-groups"], user: user)
    }

    @Test("a daemon started at a terminal (serve &) gives its extensions no terminal either",
          .enabled(if: KernelNamespaces.available, "the kernel refuses the namespaces the sandbox needs"))
    func daemonStartedAtATerminal() throws {
        let token = String(UInt32.random(in: 100_000...999_999))
        let root = try TemporaryDirectory(prefix: "wallet-host-tty-daemon")
        defer { root.remove() }
        let appex = try Self.hostileBundle(token: token)
        defer { try? FileManager.default.removeItem(at: appex.deletingLastPathComponent().deletingLastPathComponent()) }
        let state = root.url.appendingPathComponent("state")
        let apps = root.url.appendingPathComponent("apps")
        try FileManager.default.createDirectory(at: apps, withIntermediateDirectories: true)
        let host = BuildProducts.walletHost.path
        // As an operator types it: the daemon in the background of the terminal's shell, then a call through it.
        let script = """
            "$0" serve --apps "$1" --state "$2" 2>/dev/null & daemon=$!
            for attempt in $(seq 200); do [ -S "$2/wallet-host.sock" ] && break; sleep 0.05; done
            "$0" call "$3" status --state "$2" --deadline status=20s --connect "$2/wallet-host.sock"
            kill $daemon; wait $daemon
            """
        let run = try Self.atTerminal(["/bin/sh", "-c", script, host, apps.path, state.path, appex.path], in: root)
        #expect(run.output.contains("status FAILED"), "the call did not go through the daemon: \(run.output)")
        #expect(!run.injected.contains("INJECTED"), "the daemon's extension typed into the terminal: \(run.injected.debugDescription)")
        #expect(run.injected.isEmpty, "the terminal's input holds \(run.injected.debugDescription)")
        let report = try Self.report(in: state)
        #expect(!report.contains("devtty=opened"), "the extension opened /dev/tty: \(report)")
        #expect(!report.contains("tiocsti=pushed"), "\(report)")
    }

    /// Tries TIOCSTI and TIOCLINUX on fd 0 and says how each went.
    static let inheritedTerminalScript = """
        #!/usr/bin/python3
        import fcntl, sys, termios
        results = []
        for name, request, argument in (("tiocsti", termios.TIOCSTI, b"X"), ("tioclinux", 0x541C, bytes([2]) + bytes(8))):
            try:
                fcntl.ioctl(0, request, argument)
                results.append(name + "=done")
            except OSError as error:
                results.append("%s=errno%d" % (name, error.errno))
        sys.stdout.write(" ".join(results) + "\\n")
        """

    @Test("the sandbox's system call filter refuses TIOCSTI and TIOCLINUX on a terminal the extension holds (EPERM)",
          .enabled(if: geteuid() == 0, "root may push input into any terminal: only the filter stops it"))
    func filterRefusesTerminalInput() throws {
        let root = try TemporaryDirectory(prefix: "wallet-host-tty-filter")
        defer { root.remove() }
        let script = root.url.appendingPathComponent("inherited-terminal")
        try Data(Self.inheritedTerminalScript.utf8).write(to: script)
        _ = chmod(script.path, 0o755)
        // The init as the host starts it, but outside any namespace, with a terminal as its stdin:
        // it installs the filter and runs the script under it.
        let initPath = BuildProducts.directory.appendingPathComponent("WalletSandboxInit").path
        let driver = root.url.appendingPathComponent("inherit.py")
        try Data("""
            import os, subprocess, sys, termios
            primary, secondary = os.openpty()
            settings = termios.tcgetattr(secondary)
            settings[3] &= ~(termios.ICANON | termios.ECHO)
            settings[6][termios.VMIN] = 0
            settings[6][termios.VTIME] = 0
            termios.tcsetattr(secondary, termios.TCSANOW, settings)
            done = subprocess.run(sys.argv[1:], stdin=secondary, stdout=subprocess.PIPE, timeout=60)
            print(done.stdout.decode().strip())
            print("injected=" + repr(os.read(secondary, 4096)))
            """.utf8).write(to: driver)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [driver.path, initPath, script.path]
        let output = Pipe()
        process.standardOutput = output
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(text.contains("tiocsti=errno\(EPERM)"), "\(text)")
        #expect(text.contains("tioclinux=errno\(EPERM)"), "\(text)")
        #expect(text.contains("injected=b''"), "\(text)")
    }
}
