import Foundation
import Synchronization
import Testing
import WalletDaemon
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// The apps directory's watch vouching that a bundle was not rebuilt (what lets a warm call skip
/// its two `lstat`s), on a real inotify descriptor and real files.
@Suite(.timeLimit(.minutes(1)))
struct BundleWatchTests {
    /// An apps directory with one bundle, `Issuer.app/PlugIns/Status.appex`, and a watch on it
    /// that counts its reloads.
    struct WatchedApps {
        let apps: URL
        let appex: URL
        let files: BundleFingerprint.Files
        let watcher: AppsWatcher
        private let reloadCounter: Counter

        /// - Parameter subpath: where the apps directory is in a fresh temporary folder ("" for
        ///   the folder itself).
        init(subpath: String = "") throws {
            let base = try TemporaryDirectory(prefix: "wallet-host-watch").url
            apps = subpath.isEmpty ? base : base.appendingPathComponent(subpath)
            appex = apps.appendingPathComponent("Issuer.app/PlugIns/Status.appex")
            try FileManager.default.createDirectory(at: appex, withIntermediateDirectories: true)
            try Data("#!/bin/sh\n".utf8).write(to: appex.appendingPathComponent("Status"))
            try Data("<plist/>\n".utf8).write(to: appex.appendingPathComponent("Info.plist"))
            files = BundleFingerprint.Files(executable: appex.appendingPathComponent("Status"), bundle: appex)
            let counter = Counter()
            watcher = try AppsWatcher(directory: apps) { counter.reloads.add(1, ordering: .relaxed) }
            reloadCounter = counter
        }

        private final class Counter: Sendable { let reloads = Atomic<Int>(0) }
        var reloadCount: Int { reloadCounter.reloads.load(ordering: .relaxed) }

        var watch: BundleWatch { watcher.bundleWatch }
        func token() -> Int? { watch.token(forAppex: appex.path, files: files) }
    }

    @Test func aChangeVoidsTheTokenAtOnceAndANewOneComesOnlyAfterTheReload() async throws {
        let watched = try WatchedApps()
        defer { watched.watcher.stop() }
        let token = try #require(watched.token())
        #expect(watched.watch.isUnchanged(since: token))

        // Info.plist rewritten: the event is queued by the write itself, before any reload.
        try Data("<plist></plist>\n".utf8).write(to: watched.appex.appendingPathComponent("Info.plist"))
        #expect(!watched.watch.isUnchanged(since: token))
        #expect(watched.token() == nil, "no token while a change is unread or being taken in")
        try await waitFor("the reload after the change") { watched.reloadCount >= 1 }
        try await waitFor("a token again once the change is settled") { watched.token() != nil }
        let settled = try #require(watched.token())
        #expect(settled != token)
        #expect(!watched.watch.isUnchanged(since: token), "an old token stays void")
        #expect(watched.watch.isUnchanged(since: settled))
    }

    /// A write through another hard link reaches neither the bundle's folders nor their watches;
    /// only the watch on the file itself (added with the token) sees it.
    @Test func aWriteThroughAHardLinkOutsideTheBundleIsSeen() async throws {
        let watched = try WatchedApps()
        defer { watched.watcher.stop() }
        let elsewhere = try TemporaryDirectory(prefix: "wallet-host-link").url.appendingPathComponent("plist")
        #expect(link(watched.files.infoPlist, elsewhere.path) == 0)
        let token = try #require(watched.token())
        let handle = try FileHandle(forWritingTo: elsewhere)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(" ".utf8))
        try handle.close()
        #expect(!watched.watch.isUnchanged(since: token))
    }

    @Test func aBundleTheWatchDoesNotCoverGetsNoToken() async throws {
        let watched = try WatchedApps()
        defer { watched.watcher.stop() }
        // Outside the apps directory.
        let outside = try TemporaryDirectory(prefix: "wallet-host-outside").url.appendingPathComponent("Status.appex")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data().write(to: outside.appendingPathComponent("Info.plist"))
        try Data().write(to: outside.appendingPathComponent("Status"))
        #expect(watched.watch.token(forAppex: outside.path,
                                    files: BundleFingerprint.Files(executable: outside.appendingPathComponent("Status"), bundle: outside)) == nil)
        // An executable in a folder of the bundle (its own folder is not watched).
        let nested = watched.appex.appendingPathComponent("bin/Status")
        #expect(watched.watch.token(forAppex: watched.appex.path,
                                    files: BundleFingerprint.Files(executable: nested, bundle: watched.appex)) == nil)
        // A file that does not exist cannot be watched.
        let missing = watched.appex.appendingPathComponent("Missing")
        #expect(watched.watch.token(forAppex: watched.appex.path,
                                    files: BundleFingerprint.Files(executable: missing, bundle: watched.appex)) == nil)
        #expect(watched.token() != nil)
    }

    /// The watch follows a symbolic link to what it points at: a link pointed elsewhere would
    /// change the bundle with no event, so a bundle reached through one is checked on disk.
    @Test func aBundleReachedThroughASymbolicLinkGetsNoToken() async throws {
        let real = try WatchedApps()
        defer { real.watcher.stop() }
        #expect(real.token() != nil)
        let link = try TemporaryDirectory(prefix: "wallet-host-watch-link").url.appendingPathComponent("apps")
        #expect(symlink(real.apps.path, link.path) == 0)
        let linked = try AppsWatcher(directory: link) {}
        defer { linked.stop() }
        let appex = link.appendingPathComponent("Issuer.app/PlugIns/Status.appex")
        #expect(linked.bundleWatch.token(forAppex: appex.path,
                                         files: BundleFingerprint.Files(executable: appex.appendingPathComponent("Status"), bundle: appex)) == nil)
    }

    /// Renaming a folder above the apps directory (a deploy that swaps `current` for a new
    /// tree) moves the bundles away with no event in the folders watched for their contents.
    @Test func aFolderAboveTheAppsDirectoryRenamedIsSeen() async throws {
        let watched = try WatchedApps(subpath: "current/apps")
        defer { watched.watcher.stop() }
        let token = try #require(watched.token())
        let current = watched.apps.deletingLastPathComponent()
        #expect(rename(current.path, current.deletingLastPathComponent().appendingPathComponent("previous").path) == 0)
        #expect(!watched.watch.isUnchanged(since: token))
    }

    @Test func aStoppedWatchVouchesForNothing() async throws {
        let watched = try WatchedApps()
        let token = try #require(watched.token())
        watched.watcher.stop()
        watched.watcher.stop()
        #expect(!watched.watch.isUnchanged(since: token))
        #expect(watched.token() == nil)
    }
}
