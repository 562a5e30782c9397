import Foundation
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Watches the apps directory with inotify: the directory itself, each `.app`, its `PlugIns`
/// and each `.appex`, so that a bundle added, rebuilt (its executable or Info.plist written or
/// replaced) or removed is noticed. Bursts of events (a copy writes many files) are gathered
/// until 100 ms pass quietly (300 ms at most), then `onChange` runs once; the watch list is
/// renewed before it and after it, since the change may have added directories.
public final class AppsWatcher: Sendable {
    public let directory: URL
    private let fd: Int32
    private let onChange: @Sendable () async -> Void

    /// - Throws: ``DaemonError`` when inotify cannot be used.
    public init(directory: URL, onChange: @escaping @Sendable () async -> Void) throws {
        self.directory = directory
        self.onChange = onChange
        fd = inotify_init1(Int32(IN_CLOEXEC))
        guard fd >= 0 else { throw DaemonError("cannot watch \(directory.path): inotify: \(DaemonError.reason())") }
        addWatches()
        let failure = DetachedThread.start(name: "wh-apps-watch", stackBytes: 256 << 10) { [self] in run() }
        guard failure == 0 else {
            close(fd)
            throw DaemonError("cannot watch \(directory.path): no thread: \(String(cString: strerror(failure)))")
        }
    }

    private static let mask = UInt32(IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_CLOSE_WRITE | IN_ATTRIB
                                      | IN_DELETE_SELF | IN_MOVE_SELF)

    private func addWatches() {
        var paths = [directory.path]
        let manager = FileManager.default
        for app in (try? manager.contentsOfDirectory(atPath: directory.path)) ?? [] where app.hasSuffix(".app") {
            let appPath = directory.appendingPathComponent(app).path
            paths.append(appPath)
            let plugIns = appPath + "/PlugIns"
            paths.append(plugIns)
            for appex in (try? manager.contentsOfDirectory(atPath: plugIns)) ?? [] where appex.hasSuffix(".appex") {
                paths.append(plugIns + "/" + appex)
            }
        }
        // Adding a watch that exists renews it; one on a path that is gone fails harmlessly.
        for path in paths { _ = inotify_add_watch(fd, path, Self.mask) }
    }

    private func run() {
        var buffer = [UInt8](repeating: 0, count: 64 << 10)
        while true {
            guard waitReadable(timeoutMilliseconds: -1) else { continue }
            drain(&buffer)
            // Gather the burst.
            let give = ContinuousClock.now + .milliseconds(300)
            while ContinuousClock.now < give, waitReadable(timeoutMilliseconds: 100) {
                drain(&buffer)
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
        }
    }

    private func waitReadable(timeoutMilliseconds: Int32) -> Bool {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&descriptor, 1, timeoutMilliseconds) > 0
    }

    private func drain(_ buffer: inout [UInt8]) {
        _ = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
    }
}
