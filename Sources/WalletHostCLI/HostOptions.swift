import Wallet
import WalletHostRuntime

/// Options every command that runs extensions shares: `--deadline`, `--memory-limit`, `--hang-grace`, `--sandbox`,
/// `--container-quota`,
/// declared once here with their help; a command takes them with `takesHostOptions: true`.
enum HostOptions {
    /// The shared options, as the parser and the usage text see them.
    static let options: [OptionSpec] = [
        .valued("deadline", "METHOD=DURATION", repeatable: true, help: """
            Replace a method's deadline, e.g. status=250ms or passEntries=2s (a number alone is \
            milliseconds; no duration option takes more than a day). The defaults are Wallet's: status \
            100 ms, entries and requests 20 s.
            """),
        .valued("memory-limit", "SIZE", help: """
            Replace the extension point's memory limit, e.g. 80MB or 60MiB (MB is taken as MiB, as \
            the kernel reports it; a unit is required, 8MB at least). The defaults are Wallet's: 55 MB non-UI, 60 MB UI.
            """),
        .valued("hang-grace", "DURATION", help: """
            How long an extension that missed a deadline may stay silent before it is declared hung \
            and stopped, e.g. 500ms (default 1s).
            """),
        .valued("sandbox", "auto|required|off", help: """
            Run each extension in a sandbox: its own PID namespace (nothing it starts outlives it),             a private file system showing only its bundle (read-only), its App Group containers             and a private /tmp, and as an unprivileged user when the host is root. auto (default)             runs unsandboxed with a warning where the kernel refuses namespaces; required fails there.
            """),
        .valued("control-groups", "auto|off", help: """
            Give each extension launch cgroup v1 memory and pids groups (auto, the default, where \
            the host is root and they are mounted), or never (off): the host then counts the \
            extension's processes one by one and bounds its tasks with RLIMIT_NPROC. With auto, a \
            cpu group too where that hierarchy is mounted (equal shares, 5% of one CPU between \
            calls); without one the extension runs at nice +10.
            """),
        .valued("container-quota", "SIZE", help: """
            What one extension may keep in its App Group containers together, e.g. 256MB or 2GiB \
            (default 1GiB); past it the extension is stopped, and no single file may grow larger. \
            On a root host with loop devices each container is an ext4 image of its own this size \
            (one file per 16 KiB of it), made and mounted once, so the kernel refuses writes past it; \
            elsewhere the quota is a walk of the containers (wallet-host doctor says which). \
            none: unbounded.
            """),
        .valued("network", "none|proxy|host", help: """
            A sandboxed extension's network. proxy (default): a network namespace of its own with \
            only lo, where the host's egress proxy listens on 127.0.0.1:3128 (http_proxy and \
            https_proxy point there, which URLSession honours): its calls to its servers work, each \
            connection an event, and nothing of the host's network (loopback services, abstract \
            sockets) is reachable. none: no network at all. host: the host's network namespace.
            """),
        .valued("allow-network", "HOST[:PORT]", repeatable: true, help: """
            Let the egress proxy connect to HOST (a name or an address; every port without PORT). \
            Given once, only the listed destinations are allowed; never given, any \
            public destination: the host's own and private addresses need naming here, by address.
            """),
    ]

    /// The host configuration the shared options ask for, Wallet's defaults where none was given.
    /// - Throws: ``UsageError`` naming a value that does not parse.
    static func configuration(from parsed: ParsedArguments) throws(UsageError) -> HostConfiguration {
        var configuration = HostConfiguration()
        for text in parsed.values("deadline") {
            do {
                let (method, deadline) = try HostConfiguration.parseDeadline(text, registry: .wallet)
                configuration.deadlineOverrides[method] = deadline
            } catch {
                throw UsageError("\(error)")
            }
        }
        if let text = parsed.value("memory-limit") {
            configuration.memoryLimitOverride = try memoryLimit(text)
        }
        if let grace = try duration(parsed, "hang-grace", example: "500ms or 2s") {
            configuration.hangGrace = grace
        }
        if let text = parsed.value("control-groups") {
            guard let mode = ControlGroupMode(rawValue: text) else {
                throw UsageError("--control-groups expects auto or off, not \"\(text)\"")
            }
            configuration.controlGroups = mode
        }
        if let text = parsed.value("container-quota") {
            if text == "none" {
                configuration.containerQuotaBytes = nil
            } else {
                guard let bytes = HostConfiguration.parseBytes(text), bytes > 0 else {
                    throw UsageError("--container-quota expects a size such as 256MB or 2GiB, or none, not \"\(text)\"")
                }
                configuration.containerQuotaBytes = bytes
            }
        }
        if let text = parsed.value("sandbox") {
            do {
                configuration.sandbox = try SandboxMode.parse(text)
            } catch {
                throw UsageError("\(error)")
            }
        }
        try network(parsed, into: &configuration)
        return configuration
    }

    /// The smallest `--memory-limit` accepted: the Swift runtime's own mappings count against the
    /// limit (RLIMIT_DATA), and the smallest extension (the test helper) needs about 5.5 MB to
    /// start, so below this the run could only fail at launch, with a kill (SIGSEGV) that says
    /// nothing about the extension. `stress --find-memory-limit` finds an extension's own floor.
    static let smallestMemoryLimit = 8 << 20

    /// The bytes `--memory-limit TEXT` asks for.
    /// - Throws: ``UsageError`` for a number without a unit (bytes are never meant), a size that
    ///   does not parse, or one below ``smallestMemoryLimit``, each saying what to write instead.
    static func memoryLimit(_ text: String) throws(UsageError) -> Int {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        if let number = Double(trimmed), number.isFinite {
            throw UsageError("--memory-limit \(text) has no unit: write it with one, such as \(trimmed)MB "
                                 + "(MB is taken as MiB; the defaults are Wallet's 55MB non-UI, 60MB UI)")
        }
        guard let bytes = HostConfiguration.parseBytes(text), bytes > 0 else {
            throw UsageError("--memory-limit expects a size such as 55MB or 60MiB, up to 1 TiB, not \"\(text)\"")
        }
        guard bytes >= smallestMemoryLimit else {
            throw UsageError("--memory-limit \(text) is below \(smallestMemoryLimit >> 20)MB: a Swift extension's runtime alone "
                                 + "needs about 6MB, so it would be killed at launch (stress --find-memory-limit finds the real "
                                 + "floor; the defaults are Wallet's 55MB non-UI, 60MB UI)")
        }
        return bytes
    }

    /// `--network` and `--allow-network`: both need the sandbox (an unsandboxed extension has the host's network).
    private static func network(_ parsed: ParsedArguments, into configuration: inout HostConfiguration) throws(UsageError) {
        do {
            if let text = parsed.value("network") { configuration.network = try NetworkMode.parse(text) }
            configuration.networkPolicy.allowances = try parsed.values("allow-network").map { text throws(ConfigurationError) in
                try NetworkAllowance.parse(text)
            }
        } catch {
            throw UsageError("\(error)")
        }
        guard configuration.sandbox == .off else {
            if configuration.network != .proxy && !configuration.networkPolicy.allowances.isEmpty {
                throw UsageError("--allow-network needs --network proxy (it is --network \(configuration.network.rawValue))")
            }
            return
        }
        if parsed.value("network") != nil || !configuration.networkPolicy.allowances.isEmpty {
            throw UsageError("--network and --allow-network need the sandbox: with --sandbox off an extension has the host's network")
        }
    }

    /// The duration given to `--name`, nil when the option was not given. Every duration option
    /// reads its value here (``DurationText``): up to 24 h, never NaN, infinite or negative.
    /// - Parameters:
    ///   - name: The option without its dashes.
    ///   - example: Durations shown when the value is refused (`30s or 500ms`).
    ///   - allowsZero: Whether zero means something for this option.
    /// - Throws: ``UsageError`` naming the option and the value.
    static func duration(_ parsed: ParsedArguments, _ name: String, example: String, allowsZero: Bool = true)
        throws(UsageError) -> Duration? {
        guard let text = parsed.value(name) else { return nil }
        do {
            return try DurationText.parse(text, option: "--\(name)", example: example, allowsZero: allowsZero)
        } catch {
            throw UsageError(error.description)
        }
    }
}
