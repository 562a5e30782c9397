import Foundation

/// The example bundles, assembled once per test process by scripts/make-bundles from the
/// executables `swift build` just built (they sit next to the test bundle).
public enum ExampleBundles {
    /// Where the bundles were assembled (a fresh temporary directory per test process, removed
    /// when it exits).
    public static let directory: URL = {
        let output = FileManager.default.temporaryDirectory
            .appendingPathComponent("wallet-host-bundles-\(getpid())")
        try? FileManager.default.removeItem(at: output)
        TemporaryDirectory.removedAtExit(output)
        let process = Process()
        process.executableURL = BuildProducts.repositoryRoot.appendingPathComponent("scripts/make-bundles")
        process.arguments = ["--out", output.path, "--products", BuildProducts.directory.path]
        process.standardOutput = FileHandle.nullDevice
        try? process.run()
        process.waitUntilExit()
        precondition(process.terminationStatus == 0, "scripts/make-bundles failed (status \(process.terminationStatus))")
        return output
    }()

    /// The Swift sample issuer (Examples/SampleIssuer).
    public static var sampleIssuerApp: URL { directory.appendingPathComponent("SampleIssuer.app") }
    /// The misbehaving helper's app (Examples/TestHelperExt).
    public static var testHelperApp: URL { directory.appendingPathComponent("TestHelper.app") }
    /// The misbehaving helper extension, shared: use ``testHelper(mode:)`` to change its mode.
    public static var testHelperAppex: URL { testHelperApp.appendingPathComponent("PlugIns/TestHelperExt.appex") }
    /// The Python issuer (Examples/PythonIssuer): scripts, not SwiftPM products.
    public static var pythonIssuerApp: URL { directory.appendingPathComponent("PythonIssuer.app") }
    /// The Python issuer's non-UI extension.
    public static var pyNonUIExt: URL { pythonIssuerApp.appendingPathComponent("PlugIns/PyNonUIExt.appex") }

    /// A private copy of the test helper app whose extension runs in `mode` (`TestHelperMode` file).
    /// - Returns: The copy's `TestHelperExt.appex`.
    public static func testHelper(mode: String) throws -> URL {
        let copy = TemporaryDirectory.uniqueURL(prefix: "wallet-host-helper").appendingPathComponent("TestHelper.app")
        try FileManager.default.createDirectory(at: copy.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: testHelperApp, to: copy)
        let appex = copy.appendingPathComponent("PlugIns/TestHelperExt.appex")
        try setMode(mode, appex: appex)
        return appex
    }

    /// Changes the helper's mode; the helper reads it on every request.
    public static func setMode(_ mode: String, appex: URL) throws {
        try Data((mode + "\n").utf8).write(to: appex.appendingPathComponent("TestHelperMode"))
    }
}
