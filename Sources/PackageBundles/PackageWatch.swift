import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Watches a package's files with inotify on a thread of its own and calls `onChange` once per
/// burst of changes (gathered until 200 ms pass quietly): every folder of the package but the
/// build's, the assembled apps' and hidden ones, and the folders of the files its links point to
/// (an imported package's sources are links into the Xcode project). The watch list is renewed
/// after each change, since it may have added folders.
public final class PackageWatch: @unchecked Sendable {
    /// Folders of the package never watched: the build's, the assembled bundles, the simulated device.
    public static let ignoredNames: Set<String> = [".build", "apps", ".state", ".git", ".swiftpm"]

    private let packageDirectory: URL
    private let onChange: @Sendable () -> Void
    /// Confined to the watch's thread once started.
    private let descriptor: Int32

    /// - Throws: ``BundleAssemblyError`` when the system gives no inotify descriptor.
    public init(packageDirectory: URL, onChange: @escaping @Sendable () -> Void) throws {
        self.packageDirectory = packageDirectory.standardizedFileURL
        self.onChange = onChange
        descriptor = inotify_init1(Int32(IN_CLOEXEC))
        guard descriptor >= 0 else { throw BundleAssemblyError("cannot watch \(packageDirectory.path): inotify_init1 failed (errno \(errno))") }
    }

    /// Starts the thread; it runs for the rest of the process.
    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "wallet-host package watch"
        thread.start()
    }

    private func run() {
        while true {
            addWatches()
            guard waitForChange() else { return }
            onChange()
        }
    }

    /// Blocks until a change that matters, then reads until 200 ms pass without one.
    /// - Returns: False when the descriptor failed.
    private func waitForChange() -> Bool {
        var changed = false
        while true {
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let ready = poll(&poller, 1, changed ? 200 : -1)
            if ready < 0 {
                if errno == EINTR { continue }
                return false
            }
            if ready == 0 { return true }
            changed = readEvents() || changed
        }
    }

    /// Reads what is queued. - Returns: Whether an event names a file that matters (not hidden, not ignored).
    private func readEvents() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 16384)
        let count = read(descriptor, &buffer, buffer.count)
        guard count > 0 else { return false }
        var offset = 0
        var matters = false
        let header = 16
        while offset + header <= count {
            let nameLength = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16 | Int(buffer[offset + 15]) << 24
            let nameBytes = buffer[(offset + header)..<min(count, offset + header + nameLength)].prefix { $0 != 0 }
            let name = String(decoding: nameBytes, as: UTF8.self)
            if !name.hasPrefix(".") && !name.hasSuffix("~") && !Self.ignoredNames.contains(name) { matters = true }
            offset += header + nameLength
        }
        return matters
    }

    private func addWatches() {
        let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB)
        for folder in folders() { _ = inotify_add_watch(descriptor, folder, mask) }
    }

    /// The package's folders and those its links point into.
    private func folders() -> Set<String> {
        var found: Set<String> = [packageDirectory.path]
        var pending = [packageDirectory]
        let fileManager = FileManager.default
        while let folder = pending.popLast() {
            for name in (try? fileManager.contentsOfDirectory(atPath: folder.path)) ?? [] where !name.hasPrefix(".") && !Self.ignoredNames.contains(name) {
                let url = folder.appendingPathComponent(name)
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: url.path, isDirectory: &isDirectory) else { continue }
                let isLink = (try? fileManager.destinationOfSymbolicLink(atPath: url.path)) != nil
                if isLink {
                    let target = url.resolvingSymlinksInPath()
                    found.insert(isDirectory.boolValue ? target.path : target.deletingLastPathComponent().path)
                }
                if isDirectory.boolValue && !isLink && found.insert(url.path).inserted { pending.append(url) }
            }
        }
        return found
    }
}
