import Foundation
import Testing
import Wallet
import WalletBundleInspection
import WalletTestSupport

/// Manifests over 1 MiB are refused from their size, before they are read (issue 12, item 8).
@Suite("Manifest size limit")
struct ManifestSizeLimitTests {
    /// A valid XML Info.plist or entitlements file padded past the limit with a long string value,
    /// so the only thing wrong with it is its size.
    private static func padded(_ dictionary: [String: Any], to byteCount: Int) -> [String: Any] {
        var result = dictionary
        result["Padding"] = String(repeating: "x", count: byteCount)
        return result
    }

    @Test("an Info.plist over 1 MiB is an error naming the file and its size; the other app still loads")
    func oversizedInfoPlist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        try AppFixture.named("Good").write(in: directory.url)
        var big = AppFixture.named("Big")
        big.info = Self.padded(big.info, to: 2 * 1_048_576)
        let bigURL = try big.write(in: directory.url)
        let infoPlistSize = try #require(try FileManager.default.attributesOfItem(
            atPath: bigURL.appendingPathComponent("Info.plist").path)[.size] as? NSNumber).intValue

        let (apps, findings) = BundleLoader.wallet.loadApps(in: directory.url)
        #expect(apps.map(\.name) == ["Good"])
        expectFinding(findings, .error, key: ValidationFinding.Key.file, pathSuffix: "Big.app/Info.plist",
                      mentioning: "is \(infoPlistSize) bytes", "over the 1 MB limit")
    }

    @Test("an extension's .entitlements over 1 MiB is an error naming the file; its app does not load")
    func oversizedEntitlements() throws {
        let (app, findings) = try loadFixture(withFirstExtension { fixture in
            var fixture = fixture
            fixture.entitlements = Self.padded(BundleFixtureDefaults.entitlements, to: 1_100_000)
            return fixture
        })
        #expect(app?.name == nil)
        expectFinding(findings, .error, key: ValidationFinding.Key.file, pathSuffix: "WNonUIExt.appex/WNonUIExt.entitlements",
                      mentioning: "bytes", "over the 1 MB limit")
    }

    @Test("a 50 MB Info.plist is refused at once, without reading it", .timeLimit(.minutes(1)))
    func fiftyMegabyteInfoPlistIsNotRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let appURL = try AppFixture().write(in: directory.url)
        let infoPlist = appURL.appendingPathComponent("Info.plist")
        // The valid XML followed by a sparse hole to 50 MB: cheap to make, slow and big to read.
        let handle = try FileHandle(forWritingTo: infoPlist)
        try handle.truncate(atOffset: 50 * 1_048_576)
        try handle.close()

        let started = ContinuousClock.now
        let (app, findings) = BundleLoader.wallet.loadApp(at: appURL)
        let elapsed = ContinuousClock.now - started
        #expect(app?.name == nil)
        expectFinding(findings, .error, key: ValidationFinding.Key.file, pathSuffix: "Issuer.app/Info.plist",
                      mentioning: "is 52428800 bytes (50 MB), over the 1 MB limit")
        #expect(elapsed < .seconds(1), "loading took \(elapsed)")
    }

    @Test("a manifest of exactly 1 MiB is still read")
    func manifestAtTheLimitIsRead() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        var app = AppFixture()
        app.info = Self.padded(app.info, to: 1_000_000)
        let url = try app.write(in: directory.url)
        let infoPlist = url.appendingPathComponent("Info.plist")
        // Pad the XML with trailing whitespace to exactly the limit.
        let size = try #require(try FileManager.default.attributesOfItem(atPath: infoPlist.path)[.size] as? NSNumber).intValue
        let handle = try FileHandle(forWritingTo: infoPlist)
        try handle.seekToEnd()
        try handle.write(contentsOf: Data(repeating: UInt8(ascii: "\n"), count: 1_048_576 - size))
        try handle.close()

        let (loaded, findings) = BundleLoader.wallet.loadApp(at: url)
        expectNoErrors(findings)
        #expect(loaded != nil)
    }

    @Test("an Info.plist that is a symbolic link is read through it, and its target's size counts")
    func symlinkedInfoPlist() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let url = try AppFixture().write(in: directory.url)
        let infoPlist = url.appendingPathComponent("Info.plist")
        let target = directory.url.appendingPathComponent("Real-Info.plist")
        try FileManager.default.moveItem(at: infoPlist, to: target)
        try FileManager.default.createSymbolicLink(at: infoPlist, withDestinationURL: target)

        let (loaded, findings) = BundleLoader.wallet.loadApp(at: url)
        expectNoErrors(findings)
        #expect(loaded?.bundleIdentifier == BundleFixtureDefaults.appIdentifier)

        let handle = try FileHandle(forWritingTo: target)
        try handle.truncate(atOffset: 2 * 1_048_576)
        try handle.close()
        let (refused, tooLarge) = BundleLoader.wallet.loadApp(at: url)
        #expect(refused?.name == nil)
        expectFinding(tooLarge, .error, key: ValidationFinding.Key.file, pathSuffix: "Issuer.app/Info.plist",
                      mentioning: "is 2097152 bytes (2 MB), over the 1 MB limit")
    }
}
