import WalletHostCore

/// Options every command that runs extensions shares: `--deadline`, `--memory-limit`, `--hang-grace`.
enum HostOptions {
    static func configuration(from parsed: ParsedArguments) throws(UsageError) -> HostConfiguration {
        var configuration = HostConfiguration()
        for text in parsed.values("deadline") {
            do {
                let (method, deadline) = try HostConfiguration.parseDeadline(text)
                configuration.deadlineOverrides[method] = deadline
            } catch {
                throw UsageError("\(error)")
            }
        }
        if let text = parsed.value("memory-limit") {
            guard let bytes = HostConfiguration.parseBytes(text), bytes > 0 else {
                throw UsageError("--memory-limit expects a size such as 55MB or 60MiB, not \"\(text)\"")
            }
            configuration.memoryLimitOverride = bytes
        }
        if let text = parsed.value("hang-grace") {
            guard let grace = HostConfiguration.parseDuration(text) else {
                throw UsageError("--hang-grace expects a duration such as 500ms or 2s, not \"\(text)\"")
            }
            configuration.hangGrace = grace
        }
        return configuration
    }
}
