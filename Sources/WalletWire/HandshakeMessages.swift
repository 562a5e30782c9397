/// Parameters of `initialize`, the first request on every connection.
public struct InitializeParams: Codable, Sendable, Hashable {
    /// The host's protocol version (``WireProtocol/version``).
    public var protocolVersion: Int
    /// The extension point the extension was launched for.
    public var extensionPoint: String
    /// `NSExtensionPrincipalClass` with build variables expanded, e.g. `WNonUIExt.WNonUIExtHandler`.
    public var principalClass: String
    /// The extension's `CFBundleIdentifier`.
    public var bundleIdentifier: String
    /// The containing app's `CFBundleIdentifier`.
    public var containingAppBundleIdentifier: String
    /// App Group identifier -> container directory path.
    public var appGroups: [String: String]
    /// The memory limit the host enforces, in bytes.
    public var memoryLimitBytes: Int
    /// Method name -> deadline in milliseconds, as the host will enforce them.
    public var deadlines: [String: Int]

    public init(protocolVersion: Int = WireProtocol.version, extensionPoint: String, principalClass: String,
                bundleIdentifier: String, containingAppBundleIdentifier: String, appGroups: [String: String],
                memoryLimitBytes: Int, deadlines: [String: Int]) {
        self.protocolVersion = protocolVersion
        self.extensionPoint = extensionPoint
        self.principalClass = principalClass
        self.bundleIdentifier = bundleIdentifier
        self.containingAppBundleIdentifier = containingAppBundleIdentifier
        self.appGroups = appGroups
        self.memoryLimitBytes = memoryLimitBytes
        self.deadlines = deadlines
    }
}

/// The result of `initialize`.
public struct InitializeResult: Codable, Sendable, Hashable {
    /// Name and version of the runtime that implements the extension side.
    public struct Runtime: Codable, Sendable, Hashable {
        public var name: String
        public var version: String

        public init(name: String, version: String) {
            self.name = name
            self.version = version
        }
    }

    /// The protocol version the extension speaks.
    public var protocolVersion: Int
    /// The host -> extension methods the handler implements.
    public var methods: [String]
    /// Which runtime answered.
    public var runtime: Runtime

    public init(protocolVersion: Int = WireProtocol.version, methods: [String], runtime: Runtime) {
        self.protocolVersion = protocolVersion
        self.methods = methods
        self.runtime = runtime
    }
}

/// Parameters of the `$/cancelRequest` notification.
public struct CancelRequestParams: Codable, Sendable, Hashable {
    /// The id of the request the host stopped waiting for.
    public var id: RequestID

    public init(id: RequestID) {
        self.id = id
    }
}

/// Parameters of the `$/log` notification.
public struct LogParams: Codable, Sendable, Hashable {
    /// A plain word: `debug`, `info`, `notice`, `warning`, `error` or `fault`.
    public var level: String
    public var message: String

    public init(level: String, message: String) {
        self.level = level
        self.message = message
    }
}
