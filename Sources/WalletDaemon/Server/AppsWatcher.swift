import Foundation
import Synchronization
import WalletDaemonClient
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Watches the apps directory with inotify, on the host's loop: the directory itself, each `.app`, its `PlugIns`
/// and each `.appex`, so that a bundle added, rebuilt (its executable or Info.plist written or
/// replaced) or removed is noticed. Bursts of events (a copy writes many files) are gathered
/// until 100 ms pass quietly (300 ms at most), then `onChange` runs once; the watch list is
/// renewed before it and after it, since the change may have added directories.
///
/// Its ``bundleWatch`` tells the extension pool which bundles it covers and whether anything
/// changed, so that warm calls need not look at the disk.
public final class AppsWatcher: Sendable {
    public let directory: URL
    /// What this watch vouches for (``ExtensionPool/trust(_:)``); it owns the inotify descriptor.
    public let bundleWatch: BundleWatch
    private var fd: Int32 { bundleWatch.descriptor }
    private let onChange: @Sendable () async -> Void
    private let loop: HostLoop

    /// Where the watch is between changes (loop's thread).
    private enum Phase {
        case idle
        /// Gathering a burst: it ends at the quiet timer, or at `giveUp` at the latest.
        case gathering(quiet: HostLoop.Timer, giveUp: ContinuousClock.Instant)
        /// `onChange` runs; the descriptor is out of the loop meanwhile.
        case reloading
    }

    private struct Confined {
        var phase = Phase.idle
        var stopped = false
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
    }

    private let confined: LoopConfined<Confined>
    private static let quiet: Duration = .milliseconds(100)
    private static let longestBurst: Duration = .milliseconds(300)

    /// - Parameter loop: the loop to watch on (nil: the host's shared loop).
    /// - Throws: ``DaemonError`` when inotify or the host loop cannot be used.
    public init(directory: URL, loop: HostLoop? = nil, onChange: @escaping @Sendable () async -> Void) throws {
        self.directory = directory
        self.onChange = onChange
        guard let watch = BundleWatch() else { throw DaemonError("cannot watch \(directory.path): inotify: \(DaemonError.reason())") }
        bundleWatch = watch
        do {
            self.loop = try loop ?? HostLoop.shared()
        } catch {
            throw DaemonError("cannot watch \(directory.path): \(error)")
        }
        confined = LoopConfined(Confined(), to: self.loop)
        addWatches()
        do {
            try self.loop.register(watch.descriptor, for: .readable) { [weak self] _ in self?.eventsArrived() }
        } catch {
            throw DaemonError("cannot watch \(directory.path): \(error)")
        }
    }

    deinit {
        // Before the bundle watch (and its descriptor) can go.
        loop.unregister(fd)
    }

    /// Ends the watch: the bundle watch vouches for nothing from now on, and no reload starts
    /// (one under way finishes). Returns at once.
    public func stop() {
        bundleWatch.retire()
        loop.execute { [self] in
            guard !confined.value.stopped else { return }
            confined.value.stopped = true
            loop.unregister(fd)
            if case .gathering(let quiet, _) = confined.value.phase { loop.cancel(quiet) }
            if case .gathering = confined.value.phase { confined.value.phase = .idle }
        }
    }

    /// The inotify descriptor is readable: a change begins, or goes on.
    private func eventsArrived() {
        guard !confined.value.stopped else { return }
        let now = loop.clock.now()
        switch confined.value.phase {
        case .idle:
            // Counted before the events are read: see BundleWatch.
            bundleWatch.changeBegins()
            drain()
            confined.value.phase = .gathering(quiet: scheduleEndOfBurst(at: now + Self.quiet), giveUp: now + Self.longestBurst)
        case .gathering(let quiet, let giveUp):
            drain()
            loop.cancel(quiet)
            confined.value.phase = .gathering(quiet: scheduleEndOfBurst(at: min(now + Self.quiet, giveUp)), giveUp: giveUp)
        case .reloading:
            break
        }
    }

    private func scheduleEndOfBurst(at deadline: ContinuousClock.Instant) -> HostLoop.Timer {
        loop.schedule(at: deadline) { [weak self] in self?.reload() }
    }

    /// The burst is over: watch what the change added before rescanning (a change made between
    /// the event and the new watch is then seen by this rescan, and any later one raises an
    /// event), run `onChange` off the loop, then renew the watches again and listen anew.
    private func reload() {
        guard !confined.value.stopped else { return }
        addWatches()
        confined.value.phase = .reloading
        loop.unregister(fd)
        let onChange = onChange
        Task { [self] in
            await onChange()
            loop.execute { [self] in
                addWatches()
                bundleWatch.changeSettled()
                confined.value.phase = .idle
                guard !confined.value.stopped else { return }
                try? loop.register(fd, for: .readable) { [weak self] _ in self?.eventsArrived() }
            }
        }
    }

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_MODIFY | IN_ATTRIB
                                      | IN_DELETE_SELF | IN_MOVE_SELF)

    /// What a folder above the apps directory is watched for: being renamed or removed (not
    /// what happens in it).
    private static let ancestorMask = UInt32(IN_MOVE_SELF | IN_DELETE_SELF | IN_ONLYDIR | IN_DONT_FOLLOW)

    /// Watches the apps directory, each `.app`, its `PlugIns` and each `.appex`, and the folders
    /// above the apps directory, and tells ``bundleWatch`` which `.appex` folders it can vouch
    /// for (all of those watched; see ``BundleWatch``).
    private func addWatches() {
        // Adding a watch that exists renews it; one on a path that is gone fails harmlessly.
        func watch(_ path: String) -> Bool { inotify_add_watch(fd, path, Self.mask) >= 0 }
        let root = directory.standardizedFileURL.path
        var covered: Set<String> = []
        var ancestorsWatched = true
        var ancestor = Substring(root)
        while let slash = ancestor.lastIndex(of: "/"), ancestor != "/" {
            ancestor = slash == ancestor.startIndex ? "/" : ancestor[..<slash]
            ancestorsWatched = inotify_add_watch(fd, String(ancestor), Self.ancestorMask) >= 0 && ancestorsWatched
        }
        let rootWatched = watch(root) && ancestorsWatched
        let manager = FileManager.default
        for app in (try? manager.contentsOfDirectory(atPath: root)) ?? [] where app.hasSuffix(".app") {
            let appPath = root + "/" + app
            let plugIns = appPath + "/PlugIns"
            let appWatched = watch(appPath)
            let plugInsWatched = watch(plugIns)
            for appex in (try? manager.contentsOfDirectory(atPath: plugIns)) ?? [] where appex.hasSuffix(".appex") {
                let appexPath = plugIns + "/" + appex
                if watch(appexPath) && rootWatched && appWatched && plugInsWatched && BundleWatch.canCover(appexPath) {
                    covered.insert(appexPath)
                }
            }
        }
        bundleWatch.cover(covered)
    }

    /// Reads the events waiting (what they name does not matter: the whole directory is rescanned).
    private func drain() {
        _ = confined.value.buffer.withUnsafeMutableBytes { try? SystemCall.read(fd, into: $0) }
    }
}
