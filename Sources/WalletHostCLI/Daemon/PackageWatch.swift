import Dispatch
import Foundation
import PackageBundles
import WalletHostRuntime
#if canImport(Glibc)
import Glibc
#endif

/// Watches a package's files with inotify on the host's loop (``PackageWatchList`` says which) and
/// rebuilds once per burst of changes, gathered until 200 ms pass quietly. The build blocks for
/// seconds or minutes, so it runs on a queue of its own, never on the loop; the descriptor is out of
/// the loop meanwhile, and what changed during the build is read after it and rebuilds again.
final class PackageWatch: Sendable {
    private let list: PackageWatchList
    private let descriptor: Int32
    private let loop: HostLoop
    private let rebuild: @Sendable () -> Void
    /// Where builds run: one at a time, off the loop.
    private let builds = DispatchQueue(label: "wallet-host package rebuild")

    private struct Confined {
        var quiet: HostLoop.Timer?
        var buffer = [UInt8](repeating: 0, count: 16 << 10)
    }

    private let confined: LoopConfined<Confined>
    private static let quiet: Duration = .milliseconds(200)
    private static let mask = UInt32(IN_CLOSE_WRITE | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_MOVED_TO | IN_MODIFY | IN_ATTRIB)

    /// - Throws: ``CommandFailure`` when inotify or the host loop cannot be used.
    init(packageDirectory: URL, rebuild: @escaping @Sendable () -> Void) throws {
        list = PackageWatchList(packageDirectory: packageDirectory)
        self.rebuild = rebuild
        descriptor = inotify_init1(Int32(IN_CLOEXEC | IN_NONBLOCK))
        guard descriptor >= 0 else { throw CommandFailure("cannot watch \(packageDirectory.path): inotify_init1 failed (errno \(errno))") }
        do {
            loop = try HostLoop.shared()
        } catch {
            SystemCall.close(descriptor)
            throw CommandFailure("cannot watch \(packageDirectory.path): \(error)")
        }
        confined = LoopConfined(Confined(), to: loop)
        addWatches()
        do {
            try loop.register(descriptor, for: .readable) { [weak self] _ in self?.eventsArrived() }
        } catch {
            throw CommandFailure("cannot watch \(packageDirectory.path): \(error)")
        }
    }

    deinit {
        loop.unregister(descriptor)
        SystemCall.close(descriptor)
    }

    /// Readable: read what is queued; a change that matters (re)starts the quiet timer.
    private func eventsArrived() {
        guard readEvents() else { return }
        if let quiet = confined.value.quiet { loop.cancel(quiet) }
        confined.value.quiet = loop.schedule(after: Self.quiet) { [weak self] in self?.burstEnded() }
    }

    /// The burst is over: build off the loop, then watch what the change added and listen anew.
    private func burstEnded() {
        confined.value.quiet = nil
        loop.unregister(descriptor)
        builds.async { [self] in
            rebuild()
            loop.execute { [self] in
                addWatches()
                try? loop.register(descriptor, for: .readable) { [weak self] _ in self?.eventsArrived() }
            }
        }
    }

    /// Reads every queued event. - Returns: Whether one names a file that matters.
    private func readEvents() -> Bool {
        var matters = false
        while true {
            let count = (try? confined.value.buffer.withUnsafeMutableBytes { try SystemCall.read(descriptor, into: $0) }) ?? 0
            guard count > 0 else { return matters }
            let buffer = confined.value.buffer
            var offset = 0
            let header = 16
            while offset + header <= count {
                let length = Int(buffer[offset + 12]) | Int(buffer[offset + 13]) << 8 | Int(buffer[offset + 14]) << 16
                    | Int(buffer[offset + 15]) << 24
                let name = String(decoding: buffer[(offset + header)..<min(count, offset + header + length)].prefix { $0 != 0 }, as: UTF8.self)
                if PackageWatchList.matters(name) { matters = true }
                offset += header + length
            }
        }
    }

    private func addWatches() {
        for folder in list.folders() { _ = inotify_add_watch(descriptor, folder, Self.mask) }
    }
}
