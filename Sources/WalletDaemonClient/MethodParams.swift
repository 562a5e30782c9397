import ExtensionModel
import Foundation
import Wallet
import WalletWire

/// The params and results of the client API's methods (docs/DAEMON.md has one example of each).
public enum DaemonAPI {
    public struct DeviceParams: Codable, Sendable {
        public var device: DeviceKind?
        public init(device: DeviceKind? = nil) { self.device = device }
    }

    public struct PassParams: Codable, Sendable {
        public var primaryAccountIdentifier: String
        public var primaryAccountNumberSuffix: String?
        public var device: DeviceKind?
        public var issuer: String?
        /// The issuer app's team (default: the issuer identifier, an unsigned app's team).
        public var team: String?
        public init(primaryAccountIdentifier: String, primaryAccountNumberSuffix: String? = nil, device: DeviceKind? = nil,
                    issuer: String? = nil, team: String? = nil) {
            self.primaryAccountIdentifier = primaryAccountIdentifier
            self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
            self.device = device
            self.issuer = issuer
            self.team = team
        }
    }

    public struct Removed: Codable, Sendable {
        public var removed: Int

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(removed: Int) {
            self.removed = removed
        }
    }

    public struct DeviceSettingsParams: Codable, Sendable {
        public var watchPaired: Bool?
        public init(watchPaired: Bool? = nil) { self.watchPaired = watchPaired }
    }

    public struct OpenAppParams: Codable, Sendable {
        /// A path to an `.app`, or an app name or bundle identifier among the daemon's apps.
        public var app: String
        /// A container quota for this opening, in bytes: the lower of it and the daemon's own
        /// (`serve --container-quota`) holds. Nil: the daemon's.
        public var containerQuotaBytes: Int?
        public init(app: String, containerQuotaBytes: Int? = nil) {
            self.app = app
            self.containerQuotaBytes = containerQuotaBytes
        }
    }

    public struct OpenedApp: Codable, Sendable {
        public var app: String
        public var name: String
        public var stdout: [String]
        public var milliseconds: Double
        public init(app: String, name: String, stdout: [String], milliseconds: Double) {
            self.app = app
            self.name = name
            self.stdout = stdout
            self.milliseconds = milliseconds
        }
    }

    public struct Discovered: Codable, Sendable {
        public var issuers: [DiscoveredIssuer]
        public var milliseconds: Double

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(issuers: [DiscoveredIssuer], milliseconds: Double) {
            self.issuers = issuers
            self.milliseconds = milliseconds
        }
    }

    public struct AddCardParams: Codable, Sendable {
        public var issuer: String?
        public var device: DeviceKind?
        /// `"all"` or entry identifiers.
        public var select: [String]?
        /// True when the client answers `ui.prompt` and `ui.biometric` requests.
        public var userAgent: Bool?
        /// True when the client wants the entries the flow is offered, as `wallet.entries`
        /// notifications (their card art, which the report does not carry, for a page).
        public var entries: Bool?
        /// True when the client chooses the bank and the cards the params leave open, as the
        /// flow reaches them: the daemon asks with ``DaemonMethods/walletChooseIssuer`` and
        /// ``DaemonMethods/walletChooseEntries`` requests.
        public var choose: Bool?
        public init(issuer: String? = nil, device: DeviceKind? = nil, select: [String]? = nil, userAgent: Bool? = nil,
                    entries: Bool? = nil, choose: Bool? = nil) {
            self.issuer = issuer
            self.device = device
            self.select = select
            self.userAgent = userAgent
            self.entries = entries
            self.choose = choose
        }
    }

    public struct TranscriptLine: Codable, Sendable {
        public var line: String

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(line: String) {
            self.line = line
        }
    }

    public struct SubscribeParams: Codable, Sendable {
        /// Event kinds to receive (`call`, `exit`, ...); absent for every kind.
        public var kinds: [String]?
        public var bundleIdentifier: String?

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(kinds: [String]? = nil, bundleIdentifier: String? = nil) {
            self.kinds = kinds
            self.bundleIdentifier = bundleIdentifier
        }
    }

    public struct Subscribed: Codable, Sendable {
        public var subscription: Int

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(subscription: Int) {
            self.subscription = subscription
        }
    }

    public struct UnsubscribeParams: Codable, Sendable {
        public var subscription: Int

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(subscription: Int) {
            self.subscription = subscription
        }
    }

    public struct InstalledApp: Codable, Sendable {
        public struct Extension: Codable, Sendable {
            public var bundleIdentifier: String
            public var role: ExtensionRole
            public var path: String

            /// Creates the value from its members (the daemon, another module, makes it).
            public init(bundleIdentifier: String, role: ExtensionRole, path: String) {
                self.bundleIdentifier = bundleIdentifier
                self.role = role
                self.path = path
            }
        }
        public var bundleIdentifier: String
        public var name: String
        public var path: String
        public var extensions: [Extension]

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(bundleIdentifier: String, name: String, path: String, extensions: [Extension]) {
            self.bundleIdentifier = bundleIdentifier
            self.name = name
            self.path = path
            self.extensions = extensions
        }
    }

    public struct AppsList: Codable, Sendable {
        public var appsDirectory: String
        public var apps: [InstalledApp]
        /// Error findings of bundles that were not installed, as `path: key: problem`.
        public var problems: [String]

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(appsDirectory: String, apps: [InstalledApp], problems: [String]) {
            self.appsDirectory = appsDirectory
            self.apps = apps
            self.problems = problems
        }
    }

    public struct Processes: Codable, Sendable {
        public var processes: [ProcessListing]

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(processes: [ProcessListing]) {
            self.processes = processes
        }
    }

    public struct Status: Codable, Sendable {
        public var pid: Int32
        public var version: Int
        public var stateDirectory: String
        public var appsDirectory: String
        public var socket: String?
        public var keepWarm: Bool
        public var idleTimeoutSeconds: Double?
        public var uptimeSeconds: Double
        public var clients: Int
        /// Clients served at once (`serve --max-clients`); more are refused.
        public var maximumClients: Int
        /// Requests of one client served at once (`serve --client-requests`); its later ones wait, in order.
        public var clientRequestsInFlight: Int
        /// Connections refused because the daemon had its maximum of clients.
        public var refusedClients: Int
        public var requestsInFlight: Int
        /// Requests taken since the daemon started, this one included.
        public var requestsServed: Int
        public var extensions: Int
        public var runningProcesses: Int
        public var subscriptions: Int
        public var reloads: Int
        /// Warm calls that took the apps directory's watch's word that their bundle was not
        /// rebuilt, instead of looking at its files.
        public var bundleChecksSkipped: Int
        public var refusedPeers: Int
        /// Event notifications dropped because a connected client read too slowly.
        public var droppedEvents: Int
        public var draining: Bool

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(pid: Int32, version: Int, stateDirectory: String, appsDirectory: String, socket: String? = nil,
                    keepWarm: Bool, idleTimeoutSeconds: Double? = nil, uptimeSeconds: Double, clients: Int,
                    maximumClients: Int, clientRequestsInFlight: Int, refusedClients: Int, requestsInFlight: Int,
                    requestsServed: Int, extensions: Int, runningProcesses: Int, subscriptions: Int, reloads: Int,
                    bundleChecksSkipped: Int, refusedPeers: Int, droppedEvents: Int, draining: Bool) {
            self.pid = pid
            self.version = version
            self.stateDirectory = stateDirectory
            self.appsDirectory = appsDirectory
            self.socket = socket
            self.keepWarm = keepWarm
            self.idleTimeoutSeconds = idleTimeoutSeconds
            self.uptimeSeconds = uptimeSeconds
            self.clients = clients
            self.maximumClients = maximumClients
            self.clientRequestsInFlight = clientRequestsInFlight
            self.refusedClients = refusedClients
            self.requestsInFlight = requestsInFlight
            self.requestsServed = requestsServed
            self.extensions = extensions
            self.runningProcesses = runningProcesses
            self.subscriptions = subscriptions
            self.reloads = reloads
            self.bundleChecksSkipped = bundleChecksSkipped
            self.refusedPeers = refusedPeers
            self.droppedEvents = droppedEvents
            self.draining = draining
        }
    }

    /// `extension.conform`'s params.
    public struct ConformParams: Codable, Sendable {
        /// `.appex` paths (the command expands an `.app` into its extensions first).
        public var appexes: [String]
        /// Also answer the JUnit XML.
        public var junit: Bool?
        public init(appexes: [String], junit: Bool?) {
            self.appexes = appexes
            self.junit = junit
        }
    }

    /// What `extension.conform` answers: what `conform` prints after the reports.
    public struct ConformAnswer: Codable, Sendable {
        public var passed: Bool
        public var extensions: Int
        /// `name (check ids)` of each extension with a failed check.
        public var failed: [String]
        /// The reports as `conform --json` prints them.
        public var json: String
        public var junit: String?

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(passed: Bool, extensions: Int, failed: [String], json: String, junit: String? = nil) {
            self.passed = passed
            self.extensions = extensions
            self.failed = failed
            self.json = json
            self.junit = junit
        }
    }

    public struct Stopping: Codable, Sendable {
        public var stopping: Bool

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(stopping: Bool) {
            self.stopping = stopping
        }
    }

    /// The client API's version, in `host.status`.
    public static let version = 1
}
