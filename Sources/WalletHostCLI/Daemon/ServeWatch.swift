import Foundation
import PackageBundles

/// `serve --watch DIR`: the package in DIR is built and assembled whenever its files change
/// (``PackageWatch`` on the host's loop, ``PackageRebuild``); the daemon's own watch of the apps
/// directory then reloads the new bundles, so an edit is live without a command. A build that fails
/// prints the compiler's errors and keeps the last good bundles.
enum ServeWatch {
    static let option = OptionSpec.valued("watch", "DIR", help: """
        Rebuild the Swift package in DIR (made by new, by hand with a Bundles/ folder, or by import) whenever its \
        files change and assemble DIR/apps (the default --apps then), printing the build's errors; the new bundles \
        are reloaded. wallet-host bundle DIR makes the first build.
        """)

    /// The package to watch, if `--watch` names one.
    static func package(_ parsed: ParsedArguments) -> URL? {
        parsed.value("watch").map { URL(fileURLWithPath: $0).standardizedFileURL }
    }

    /// Watches the package from now on, on the host's loop. It does not build at start: `bundle`
    /// does (run it after `serve`, so that the commands after it find the daemon listening).
    /// - Returns: The watch, which lives as long as the daemon.
    /// - Throws: ``CommandFailure`` when inotify or the host loop cannot be used.
    static func start(package: URL) throws -> PackageWatch {
        let rebuild = PackageRebuild(packageDirectory: package)
        // The daemon watches the apps folder from the start, also before anything is assembled in it.
        try? FileManager.default.createDirectory(at: rebuild.appsDirectory, withIntermediateDirectories: true)
        if !rebuild.isAssembled {
            StandardError.write("wallet-host serve: \(package.path): nothing assembled in apps/ yet; run wallet-host bundle there "
                + "(after that, each saved file rebuilds it)\n")
        }
        return try PackageWatch(packageDirectory: package) {
            StandardError.write("wallet-host serve: \(package.path) changed; rebuilding\n")
            report(rebuild.run())
        }
    }

    private static func report(_ report: PackageRebuild.Report) {
        StandardError.write("wallet-host serve: \(report.text)\n")
    }
}
