import CWalletPoll
import Foundation
import Synchronization
import WalletDaemonClient
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Watches the apps directory with inotify: the directory itself, each `.app`, its `PlugIns`
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
    /// Signalled by ``stop()``.
    private let stopSignal: Int32
    private let onChange: @Sendable () async -> Void
    private let stopRequested = Atomic<Bool>(false)

    /// - Throws: ``DaemonError`` when inotify cannot be used.
    public init(directory: URL, onChange: @escaping @Sendable () async -> Void) throws {
        self.directory = directory
        self.onChange = onChange
        guard let watch = BundleWatch() else { throw DaemonError("cannot watch \(directory.path): inotify: \(DaemonError.reason())") }
        bundleWatch = watch
        stopSignal = wh_poll_wakeup_create()
        guard stopSignal >= 0 else { throw DaemonError("cannot watch \(directory.path): eventfd: \(DaemonError.reason())") }
        addWatches()
        let failure = DetachedThread.start(name: "wh-apps-watch", stackBytes: 256 << 10) { [self] in run() }
        guard failure == 0 else {
            close(stopSignal)
            throw DaemonError("cannot watch \(directory.path): no thread: \(String(cString: strerror(failure)))")
        }
    }

    /// Ends the watch: the bundle watch vouches for nothing from now on, and no reload starts
    /// (the thread ends after a reload under way). Returns at once.
    public func stop() {
        bundleWatch.retire()
        guard !stopRequested.exchange(true, ordering: .relaxed) else { return }
        wh_poll_wakeup_signal(stopSignal)
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

    private func run() {
        defer { close(stopSignal) }
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            switch wait(timeoutMilliseconds: -1) {
            case .stop: return
            case .timeout: continue
            case .events: break
            }
            // Counted before the events are read: see BundleWatch.
            bundleWatch.changeBegins()
            drain(&buffer)
            // Gather the burst.
            let give = ContinuousClock.now + .milliseconds(300)
            gathering: while ContinuousClock.now < give {
                switch wait(timeoutMilliseconds: 100) {
                case .stop: return
                case .timeout: break gathering
                case .events: drain(&buffer)
                }
            }
            // Watch what the change added before rescanning: a change made between the event and
            // the new watch is then seen by this rescan, and any later one raises an event.
            addWatches()
            let done = DispatchSemaphore(value: 0)
            let onChange = onChange
            Task {
                await onChange()
                done.signal()
            }
            done.wait()
            addWatches()
            bundleWatch.changeSettled()
        }
    }

    private enum Wait { case events, timeout, stop }

    private func wait(timeoutMilliseconds: Int32) -> Wait {
        var descriptors = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: stopSignal, events: Int16(POLLIN), revents: 0)]
        guard poll(&descriptors, 2, timeoutMilliseconds) > 0 else { return .timeout }
        return descriptors[1].revents != 0 ? .stop : .events
    }

    private func drain(_ buffer: inout [UInt8]) {
        _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    }
}
