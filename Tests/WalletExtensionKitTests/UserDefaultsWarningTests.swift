import Foundation
import PassKit
import Testing
import WalletTestSupport

/// The Wallet Extensions guide's global, in the Swift 6 language mode: it needs UserDefaults to
/// be Sendable, which PassKit (through FoundationSendableConformances) supplies.
private let appGroupSharedDefaults = UserDefaults(suiteName: "group.com.example.tests")!

/// Bug 9 of issue 33: the SDK printed "conformance of 'UserDefaults' to protocol 'Sendable' was
/// already stated" on every user build.
@Suite("UserDefaults is Sendable without a warning", .timeLimit(.minutes(2)))
struct UserDefaultsWarningTests {
    @Test("the file that states the conformance, compiled with its target's flags, prints no warning")
    func conformanceCompilesWithoutWarnings() throws {
        let root = BuildProducts.repositoryRoot
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let declaring = try #require(files.first { url in
            url.pathExtension == "swift"
                && ((try? String(contentsOf: url, encoding: .utf8))?.contains("extension UserDefaults: @retroactive @unchecked Sendable") ?? false)
        })
        let target = declaring.deletingLastPathComponent().lastPathComponent
        let flags = try unsafeSwiftFlags(of: target, packageAt: root)
        let diagnostics = try run(["swiftc", "-typecheck", "-swift-version", "6", "-module-name", target] + flags + [declaring.path])
        #expect(!diagnostics.contains("warning:"), "\(target): \(diagnostics)")
        #expect(appGroupSharedDefaults.string(forKey: "unset") == nil)
    }

    /// The `unsafeFlags` of `target`'s Swift settings, from `swift package dump-package`.
    private func unsafeSwiftFlags(of target: String, packageAt root: URL) throws -> [String] {
        // A scratch directory of its own: `swift test` holds the package's build lock.
        let scratch = try TemporaryDirectory(prefix: "wallet-host-dump-package")
        defer { scratch.remove() }
        let json = try run(["swift", "package", "--package-path", root.path, "--scratch-path", scratch.url.path, "dump-package"],
                           standardErrorToo: false)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let targets = try #require(manifest["targets"] as? [[String: Any]])
        let settings = targets.first { $0["name"] as? String == target }?["settings"] as? [[String: Any]] ?? []
        return settings.flatMap { setting -> [String] in
            guard (setting["tool"] as? String) == "swift", let kind = setting["kind"] as? [String: Any],
                  let unsafe = kind["unsafeFlags"] as? [String: Any], let flags = unsafe["_0"] as? [String] else { return [] }
            return flags
        }
    }

    private func run(_ arguments: [String], standardErrorToo: Bool = true) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = standardErrorToo ? output : FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
