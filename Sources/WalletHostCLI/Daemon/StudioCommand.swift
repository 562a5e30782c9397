import Foundation
import WalletDaemon
import WalletHostRuntime
import WalletWire
#if canImport(Glibc)
import Glibc
#endif

/// `wallet-host studio`: Wallet in the browser. Reuses the daemon serving the state directory
/// (or starts one in the background), asks it for its studio page (`studio.open` starts the
/// page on loopback if it does not run yet) and opens the page with `xdg-open` where there is a
/// desktop to open it on, else prints its URL (docs/STUDIO.md).
struct StudioCommand {
    let appsURL: URL
    let stateURL: URL
    let openBrowser: Bool

    static let spec = CommandSpec(
        "studio",
        summary: """
            Open Wallet in the browser: the daemon serving the state directory (started in the \
            background when none answers) serves a page on loopback with the add-card flow live, the \
            UI extension's screen drawn, and the extensions' processes, events and output beside it. \
            Prints the page's URL, which carries the token every request needs.
            """,
        options: [CommonOptions.apps, CommonOptions.state,
                  .flag("no-open", help: "Print the URL only; do not run xdg-open.")])

    init(arguments: [String]) throws(UsageError) {
        let parsed = try ParsedArguments(arguments, for: Self.spec)
        guard parsed.positionals.isEmpty else { throw UsageError("studio takes no positional arguments") }
        appsURL = URL(fileURLWithPath: parsed.value("apps") ?? AppsDirectory.defaultPath).standardizedFileURL
        stateURL = StateCommands.stateURL(parsed).standardizedFileURL
        openBrowser = !parsed.has("no-open")
    }

    func run() async throws -> Int32 {
        let socket = DaemonRoute.socketPath(forState: stateURL)
        let client = try await connectOrStart(socket: socket)
        let opened = try await DaemonRoute.call(client, StudioLauncher.openMethod, [String: String](), as: StudioLauncher.Opened.self)
        print(opened.url)
        if openBrowser, let opener = Self.desktopOpener() {
            let process = Process()
            process.executableURL = URL(fileURLWithPath: opener)
            process.arguments = [opened.url]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try? process.run()
        } else {
            FileHandle.standardError.write(Data("wallet-host studio: open the URL above in a browser on this machine\n".utf8))
        }
        return 0
    }

    /// The daemon answering on `socket`, or a `serve` started in the background for the state directory.
    private func connectOrStart(socket: String) async throws -> DaemonClient {
        if let client = try? DaemonClient(connectingTo: socket) { return client }
        let serve = Process()
        serve.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        serve.arguments = ["serve", "--apps", appsURL.path, "--state", stateURL.path]
        serve.standardInput = FileHandle.nullDevice
        serve.standardOutput = FileHandle.nullDevice
        serve.standardError = FileHandle.nullDevice
        try serve.run()
        FileHandle.standardError.write(Data("wallet-host studio: started wallet-host serve (pid \(serve.processIdentifier)) for \(stateURL.path)\n".utf8))
        for _ in 0..<500 {
            if let client = try? DaemonClient(connectingTo: socket) { return client }
            guard serve.isRunning else { break }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw CommandFailure("the daemon started for \(stateURL.path) did not answer on \(socket); run wallet-host serve to see why")
    }

    /// `xdg-open` when there is a desktop session to open a browser in.
    static func desktopOpener() -> String? {
        let environment = ProcessInfo.processInfo.environment
        guard environment["DISPLAY"] != nil || environment["WAYLAND_DISPLAY"] != nil else { return nil }
        let path = environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/xdg-open" }.first { access($0, X_OK) == 0 }
    }
}
