import Foundation

/// Where the checkout and the build products are, found from this file and from the running
/// test binary, so that tests run what `swift build` just built.
public enum BuildProducts {
    /// The repository root: this file is `Tests/WalletTestSupport/BuildProducts.swift`.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The build products directory: where the test runner itself lives.
    public static let directory: URL = {
        let runner = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        var directory = runner.deletingLastPathComponent()
        // Inside `X.xctest/` on some layouts: step out to the products directory.
        while directory.pathExtension == "xctest" || directory.lastPathComponent == "Contents"
            || directory.lastPathComponent == "MacOS" {
            directory = directory.deletingLastPathComponent()
        }
        return directory
    }()

    /// The built `wallet-host` executable.
    public static var walletHost: URL { directory.appendingPathComponent("wallet-host") }
}
