/// Whether each extension launch gets control groups of its own (``ExtensionControlGroup``):
/// cgroup v1 `memory` and `pids` groups that count and bound everything the extension runs, and
/// a `cpu` group (equal shares, a quota while idle) where the `cpu` hierarchy can be used.
public enum ControlGroupMode: String, Sendable, CaseIterable {
    /// Where this host can make them (root, with the v1 `memory` and `pids` hierarchies
    /// mounted); elsewhere the host counts the extension's processes one by one (``MemoryUsage``)
    /// and, for a host that is not root, bounds its tasks with `RLIMIT_NPROC` in its own user
    /// namespace; without a `cpu` group its processes run at nice +10.
    case auto
    /// Never: the fallback above everywhere.
    case off
}
