/// One sentence for a report saying whether the processes it covers ran in the sandbox, from
/// their `spawn` events.
public enum SandboxSummary {
    /// Whether every launch among `events` was sandboxed; nil when there was no launch.
    public static func sandboxed(_ events: [HostEvent]) -> Bool? {
        let spawns = spawns(in: events)
        return spawns.isEmpty ? nil : spawns.allSatisfy { $0.sandboxed == true }
    }

    /// "sandbox: on (...)", or "sandbox: OFF for 2 of 3 launches (why)"; nil when there was no launch.
    public static func note(_ events: [HostEvent]) -> String? {
        let spawns = spawns(in: events)
        guard !spawns.isEmpty else { return nil }
        let off = spawns.filter { $0.sandboxed != true }
        return note(off: off.count, of: spawns.count, reason: off.first?.unsandboxedReason)
    }

    /// The same sentence for one call's process, from its outcome (``CallOutcome/sandboxed``);
    /// nil when the call had no process.
    public static func note(_ outcome: CallOutcome<some Sendable>) -> String? {
        guard let sandboxed = outcome.sandboxed else { return nil }
        return note(off: sandboxed ? 0 : 1, of: 1, reason: outcome.unsandboxedReason)
    }

    private static func note(off: Int, of launches: Int, reason: String?) -> String {
        guard off > 0 else {
            return "sandbox: on (own PID namespace, private file system and /tmp"
                + (SandboxPlan.runsAsUnprivilegedUser ? ", user \(SandboxPlan.unprivilegedID))" : ", user namespace)")
        }
        let count = off == launches ? "every launch" : "\(off) of \(launches) launches"
        return "sandbox: OFF for \(count) (\(reason ?? "unavailable")): the extension could see the state "
            + "directory and other issuers' App Groups, and what it started could outlive it"
    }

    private static func spawns(in events: [HostEvent]) -> [HostEvent.Spawn] {
        events.compactMap { event in
            if case .spawn(let spawn) = event.payload { return spawn }
            return nil
        }
    }
}
