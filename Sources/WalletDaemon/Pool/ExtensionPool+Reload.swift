import CWalletMemory
import Foundation
import Wallet
import WalletBundleInspection
import WalletHostRuntime

/// Reloads, keep-warm launches, crash relaunches, listings and the final stop.
extension ExtensionPool {
    /// Rescans the apps directory: bundles removed or rebuilt are retired, crash-looping marks
    /// are cleared, and with keep-warm every installed non-UI extension is launched.
    /// - Returns: what changed, in a few words per bundle.
    @discardableResult
    public func reload() async -> ReloadSummary {
        var installed = InstalledApps(directory: appsDirectory)
        // The daemon reports only the errors (apps.list, a discovery's problems): the warnings
        // and notes of 100 bundles held about 130 KB for the daemon's life.
        installed.findings.removeAll { !$0.isError }
        let installedExtensions = Dictionary(installed.apps.flatMap(\.extensions).map { ($0.url.standardizedFileURL.path, $0) },
                                             uniquingKeysWith: { first, _ in first })
        let current = state.withLock { state -> [String: Entry]? in state.stopped ? nil : state.entries }
        guard let current else { return ReloadSummary() }
        // Looked at outside the lock: the files of every bundle the pool runs.
        var rebuilt: Set<String> = []
        var gone: Set<String> = []
        for (key, entry) in current {
            if let bundle = installedExtensions[key] {
                let fingerprint = BundleFingerprint(executable: bundle.executableURL, bundle: bundle.url)
                if fingerprint != entry.fingerprint || bundle != entry.bundle { rebuilt.insert(key) }
            } else if key.hasPrefix(appsDirectory.standardizedFileURL.path + "/") || !FileManager.default.fileExists(atPath: key) {
                gone.insert(key)
            }
        }
        let appGroups = installedExtensions.filter { current[$0.key] == nil || rebuilt.contains($0.key) }
            .compactMapValues { bundle in try? device.state.appGroupContainers(bundle.appGroups, team: bundle.team) }
        var summary = ReloadSummary()
        state.withLock { state in
            guard !state.stopped else { return }
            state.reloads += 1
            state.installed = installed
            for (key, entry) in state.entries {
                if rebuilt.contains(key) {
                    state.entries[key] = nil
                    retire(entry.runner, reason: "bundle rebuilt", in: &state)
                    summary.replaced.append(entry.bundle.bundleIdentifier)
                } else if gone.contains(key) {
                    state.entries[key] = nil
                    retire(entry.runner, reason: "bundle removed", in: &state)
                    summary.removed.append(entry.bundle.bundleIdentifier)
                } else if installedExtensions[key] != nil {
                    state.entries[key]?.crashes.reset()
                    state.entries[key]?.crashLooping = false
                }
            }
            // UI extensions run per flow, with the flow's user agent: the pool keeps non-UI ones.
            for (key, bundle) in installedExtensions where state.entries[key] == nil && bundle.role == .nonUI {
                summary.added.append(bundle.bundleIdentifier)
                if let groups = appGroups[key] { _ = makeRunner(for: bundle, key: key, appGroups: groups, in: &state) }
            }
        }
        if keepWarm { await warmAll() }
        // Launching leaves free memory in glibc's arenas (plists read, spawn buffers): give it back.
        wh_release_free_memory()
        summary.added.sort()
        summary.replaced.sort()
        summary.removed.sort()
        return summary
    }

    /// Launches every kept-warm extension that is not running, at most ``launchesAtOnce`` at a
    /// time: 100 handshakes under way at once left their memory as holes in the heap between
    /// the runners' long-lived objects (about 0.4 MB of the daemon's RSS), and took no less time.
    private func warmAll() async {
        let runners = state.withLock { $0.entries.values.filter { $0.keepWarm && !$0.crashLooping }.map(\.runner) }
        await withTaskGroup(of: Void.self) { group in
            for (index, runner) in runners.enumerated() {
                if index >= Self.launchesAtOnce { await group.next() }
                group.addTask {
                    if runner.pid == nil { await runner.prewarm() }
                }
            }
        }
    }

    private static var launchesAtOnce: Int { 16 }

    /// A process ended without the host asking: with keep-warm, launch it again after the
    /// policy's delay (a timer on the configuration's clock), or mark it crash-looping.
    public func processCrashed(bundleIdentifier: String) {
        let clock = configuration.clock
        state.withLock { state in
            guard !state.stopped else { return }
            for (key, entry) in state.entries where entry.bundle.bundleIdentifier == bundleIdentifier && entry.keepWarm {
                switch state.entries[key]!.crashes.recordCrash(at: clock.now()) {
                case .crashLooping:
                    state.entries[key]!.crashLooping = true
                    state.relaunches.removeValue(forKey: key)?.cancel()
                case .relaunch(let delay):
                    let runner = entry.runner
                    state.relaunches[key]?.cancel()
                    state.relaunches[key] = clock.schedule(at: clock.now() + delay) { [weak self] in
                        await self?.relaunch(key: key, runner: runner)
                    }
                }
            }
        }
    }

    private func relaunch(key: String, runner: ExtensionRunner) async {
        let due = state.withLock { state -> Bool in
            state.relaunches[key] = nil
            guard !state.stopped, let entry = state.entries[key], entry.runner === runner, !entry.crashLooping else { return false }
            return true
        }
        if due, runner.pid == nil { await runner.prewarm() }
    }

    /// What `wallet-host ps` lists: every extension the daemon has a runner for.
    public func processes() async -> [ProcessListing] {
        let table = hub.table
        let entries = state.withLock { Array($0.entries.values) }
        var listings: [ProcessListing] = []
        for entry in entries {
            let row = table.rows[entry.bundle.bundleIdentifier] ?? ProcessTable.Row(bundleIdentifier: entry.bundle.bundleIdentifier)
            listings.append(ProcessListing(row: row, pid: entry.runner.pid, path: entry.bundle.url.path, keepWarm: entry.keepWarm,
                                           crashLooping: entry.crashLooping))
        }
        // Extensions run for one flow only (UI extensions) still have rows in the table.
        let known = Set(listings.map(\.bundleIdentifier))
        for row in table.rows.values where !known.contains(row.bundleIdentifier) {
            listings.append(ProcessListing(row: row, pid: row.pid, path: nil, keepWarm: false, crashLooping: false))
        }
        return listings.sorted { $0.bundleIdentifier < $1.bundleIdentifier }
    }

    /// Stops every process with the normal stop sequence, concurrently, and takes no more work.
    public func stopAll(reason: String) async {
        let runners = state.withLock { state -> [ExtensionRunner] in
            state.stopped = true
            for timer in state.relaunches.values { timer.cancel() }
            state.relaunches.removeAll()
            defer {
                state.entries.removeAll()
                state.retiring.removeAll()
            }
            return state.entries.values.map(\.runner) + state.retiring
        }
        await withTaskGroup(of: Void.self) { group in
            for runner in runners { group.addTask { await runner.stop(reason: reason) } }
        }
    }
}
