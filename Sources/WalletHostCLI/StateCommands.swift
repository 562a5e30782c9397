import Foundation
import Wallet
import WalletBundleInspection

/// `wallet-host passes list|add|remove|reset` and `wallet-host device`.
struct StateCommands {
    static let passesSpec = CommandSpec(
        "passes",
        arguments: [.init(name: "list|add ID|remove ID|reset", help: """
            List the passes (the default), add one with primary account identifier ID, remove the \
            passes with that identifier, or empty the pass library.
            """)],
        summary: "Show or change the simulated device's pass library.",
        options: [CommonOptions.device.withHelp("""
                      Limit list, remove and reset to the iPhone or the watch; add puts the pass there \
                      (default iphone).
                      """),
                  .valued("issuer", "ID", help: """
                      add: the issuer app's bundle identifier recorded with the pass (default manual). An \
                      extension sees only its own issuer's passes in passLibrary.passes, so a pass meant to be \
                      seen by an issuer's status needs its --issuer.
                      """),
                  .valued("team", "TEAM", help: """
                      add: the issuer app's team recorded with the pass (default: the --issuer identifier, an \
                      unsigned app's team). Only that team's extensions see the pass, so a pass of a signed app \
                      needs its team identifier.
                      """),
                  .valued("suffix", "DIGITS", help: """
                      add: the primary account number suffix, the card number's last 4 or 5 digits (default 0000).
                      """),
                  CommonOptions.state,
                  CommonOptions.json.withHelp("Print the result as JSON.")] + CommonOptions.daemon)

    static let deviceSpec = CommandSpec(
        "device",
        summary: "Show the simulated device's settings (paired watch, apps opened once), or pair or unpair the watch.",
        options: [.valued("watch", "paired|unpaired", help: "Pair or unpair the Apple Watch first."),
                  CommonOptions.state,
                  CommonOptions.json.withHelp("Print the settings as JSON.")] + CommonOptions.daemon)

    static let appSpec = CommandSpec(
        "app",
        arguments: [.init(name: "open APP", help: "The containing app: a path to an .app, or an app name or bundle identifier in --apps.")],
        summary: """
            Run a containing app as the user opening it (it logs in and writes its cards into its App \
            Group) and record that it was opened once.
            """,
        options: [CommonOptions.apps,
                  CommonOptions.state,
                  CommonOptions.json.withHelp("Print the app's bundle identifier, output and run time as JSON.")]
            + HostOptions.options.filter { $0.name == "container-quota" }.map { $0.withHelp("""
                What the app may keep in its App Group containers together, as its extensions \
                (default 1GiB); past it the app is stopped, and no single file may grow larger. \
                none: unbounded. Through a daemon, the lower of this and the daemon's own holds.
                """) }
            + CommonOptions.daemon)

    static func passes(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: passesSpec)
        let deviceKind = try parsed.value("device").map(parseDevice)
        let suffix = try parsed.value("suffix").map(PassArguments.accountNumberSuffix) ?? "0000"
        if parsed.positionals.count == 2, ["add", "remove"].contains(parsed.positionals[0]) {
            _ = try PassArguments.accountIdentifier(parsed.positionals[1], in: "passes \(parsed.positionals[0])")
        }
        let device = try await access(parsed)
        switch parsed.positionals.first {
        case "list", nil:
            let passes = try await device.passes().filter { deviceKind == nil || $0.device == deviceKind }
            if parsed.has("json") {
                printJSON(try JSONOutput.encode(passes))
            } else if passes.isEmpty {
                print("no passes")
            } else {
                for pass in passes {
                    print("\(pass.deviceName): \(pass.primaryAccountIdentifier) ••\(pass.primaryAccountNumberSuffix) "
                          + "from \(pass.issuer), added \(pass.dateAdded.formatted(.iso8601))")
                }
            }
        case "add":
            guard parsed.positionals.count == 2 else { throw UsageError("passes add needs a PRIMARY_ACCOUNT_ID") }
            let pass = try await device.addPass(PassRecord(primaryAccountIdentifier: parsed.positionals[1],
                                                           primaryAccountNumberSuffix: suffix,
                                                           device: deviceKind ?? .iphone, issuer: parsed.value("issuer") ?? "manual",
                                                           team: parsed.value("team")))
            if parsed.has("json") {
                printJSON(try JSONOutput.encode(pass))
            } else {
                print("added \(pass.primaryAccountIdentifier) to \(pass.deviceName)")
            }
        case "remove":
            guard parsed.positionals.count == 2 else { throw UsageError("passes remove needs a PRIMARY_ACCOUNT_ID") }
            let removed = try await device.removePass(primaryAccountIdentifier: parsed.positionals[1], device: deviceKind)
            print(parsed.has("json") ? "{\"removed\":\(removed)}" : "removed \(removed) pass(es)")
            return removed > 0 ? 0 : 1
        case "reset":
            try await device.resetPasses(device: deviceKind)
            print(parsed.has("json") ? "{\"reset\":true}" : "pass library emptied")
        case let other?:
            throw UsageError("passes takes list, add, remove or reset, not \"\(other)\"")
        }
        return 0
    }

    static func device(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: deviceSpec)
        if let watch = parsed.value("watch") {
            guard watch == "paired" || watch == "unpaired" else { throw UsageError("--watch takes paired or unpaired") }
        }
        let device = try await access(parsed)
        if let watch = parsed.value("watch") {
            try await device.setWatchPaired(watch == "paired")
        }
        let settings = try await device.settings()
        if parsed.has("json") {
            printJSON(try JSONOutput.encode(settings))
        } else {
            print("Apple Watch: \(settings.watchPaired ? "paired" : "not paired")")
            print("apps opened: \(settings.launchedApps.isEmpty ? "none" : settings.launchedApps.joined(separator: ", "))")
        }
        return 0
    }

    /// `wallet-host app open APP`.
    static func app(_ arguments: [String]) async throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: appSpec)
        guard parsed.positionals.count == 2, parsed.positionals[0] == "open" else { throw UsageError("usage: app open APP") }
        let opened = try await access(parsed, apps: parsed.value("apps") ?? AppsDirectory.defaultPath)
            .openApp(parsed.positionals[1], appsDirectory: parsed.value("apps"),
                     containerQuota: parsed.value("container-quota") == nil ? nil : .some(try HostOptions.configuration(from: parsed).containerQuotaBytes))
        if parsed.has("json") {
            printJSON(try JSONOutput.encode(["app": opened.app, "stdout": opened.stdout.joined(separator: "\n"),
                                         "milliseconds": String(format: "%.1f", opened.milliseconds)]))
        } else {
            print("opened \(opened.name) (\(String(format: "%.0f", opened.milliseconds)) ms)")
            for line in opened.stdout { print("  \(line)") }
        }
        return 0
    }

    /// The daemon serving the state directory when one answers (and, for `apps`, serves that
    /// apps directory), else the state directory in this process.
    static func access(_ parsed: ParsedArguments, apps: String? = nil) async throws -> any DeviceStateAccess {
        let state = stateURL(parsed)
        if let client = try DaemonRoute(parsed).client(state: state) {
            guard let apps else { return DaemonDeviceState(client: client) }
            if await DaemonRoute.appsDirectory(of: client) == URL(fileURLWithPath: apps).standardizedFileURL.path {
                return DaemonDeviceState(client: client)
            }
        }
        return LocalDeviceState(device: SimulatedDevice(state: StateDirectory(url: state)))
    }

    /// An app by path, or by name/bundle id among the apps directory's. A bare `Name.app` that is
    /// not a folder here is a name (what `import` and `bundle` print: `app open Bank.app --apps DIR`).
    static func loadApp(_ reference: String, appsDirectory: String?) throws -> AppBundle {
        let url = URL(fileURLWithPath: reference)
        let isBareName = !reference.contains("/") && !FileManager.default.fileExists(atPath: url.path)
        if (url.pathExtension == "app" && !isBareName)
            || FileManager.default.fileExists(atPath: url.appendingPathComponent("Info.plist").path) {
            let (app, findings) = BundleLoader.wallet.loadApp(at: url)
            guard let app else {
                throw CommandFailure("cannot load \(reference):\n" + findings.filter(\.isError).map { "  \($0)" }.joined(separator: "\n"))
            }
            return app
        }
        let appsURL = URL(fileURLWithPath: appsDirectory ?? AppsDirectory.defaultPath)
        try AppsDirectory.check(appsURL, given: appsDirectory)
        let installed = InstalledApps(directory: appsURL)
        guard let app = installed.app(named: reference) else {
            throw CommandFailure("no app called \(reference) in \(appsDirectory ?? AppsDirectory.defaultPath)")
        }
        return app
    }

    static func stateURL(_ parsed: ParsedArguments) -> URL {
        parsed.value("state").map { URL(fileURLWithPath: $0) } ?? StateDirectory.defaultURL
    }

    static func parseDevice(_ text: String) throws(UsageError) -> DeviceKind {
        guard let kind = DeviceKind(rawValue: text) else { throw UsageError("--device takes iphone or watch, not \"\(text)\"") }
        return kind
    }
}

/// Where installed issuer apps are looked for when `--apps` is not given.
enum AppsDirectory {
    static var defaultPath: String {
        ProcessInfo.processInfo.environment["WALLET_HOST_APPS"] ?? ".build/bundles"
    }

    /// Checks that the apps directory exists, before anything looks for apps in it.
    /// - Parameter given: The `--apps` value, nil when the default was used.
    /// - Throws: ``CommandFailure`` saying where it looked and how to name another directory:
    ///   an installed `wallet-host` run outside its checkout has no `.build/bundles` beside it.
    static func check(_ url: URL, given: String?) throws {
        var isDirectory: ObjCBool = false
        guard !FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) || !isDirectory.boolValue else { return }
        let whence: String
        if let given, given != defaultPath {
            whence = "given by --apps"
        } else if ProcessInfo.processInfo.environment["WALLET_HOST_APPS"] != nil {
            whence = "named by WALLET_HOST_APPS"
        } else {
            whence = "the default, relative to the working directory \(FileManager.default.currentDirectoryPath)"
        }
        throw CommandFailure("no apps directory at \(url.standardizedFileURL.path) (\(whence)): give --apps DIR, or set "
                                 + "WALLET_HOST_APPS, to the directory holding your issuer .app bundles "
                                 + "(wallet-host import makes one from an Xcode project)")
    }
}

enum JSONOutput {
    static func encode(_ value: some Encodable) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return String(decoding: try encoder.encode(value), as: UTF8.self)
    }
}
