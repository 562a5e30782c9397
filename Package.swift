// swift-tools-version:6.0
import PackageDescription
import CompilerPluginSupport

/// Modules named after Apple's frameworks, so that iOS extension source compiles unchanged (as
/// swift-corelibs-foundation is named `Foundation`). `WalletExtensionKit` re-exports them all.
let compatibilityModules = ["PassKit", "UIKit", "CoreGraphics", "CoreImage", "ImageIO", "os", "OSLog", "WatchConnectivity", "LocalAuthentication",
                            "Security"]
/// SwiftUI and the Combine subset it needs: a product of their own, so that only the extensions that use them link them.
let swiftUIModules = ["SwiftUI", "Combine"]

/// Swift Testing's toolchain declares cross-import overlays for Apple's CoreGraphics, CoreImage
/// and UIKit without shipping them on Linux; a test file importing Testing and one of ours
/// needs a module of that name to exist. These are empty.
let testingOverlayStandIns = ["_Testing_CoreGraphics", "_Testing_CoreImage", "_Testing_UIKit"]

/// Example extensions and containing apps: executable targets built from Examples/.
/// Each is assembled into a real `.app/PlugIns/*.appex` bundle by scripts/make-bundles.
let exampleExecutables: [Target] = [
    // The examples' stand-in for an issuer's server: real ECC_V2 encryption with libcrypto (not the SDK).
    .target(name: "ExampleIssuerBackend", dependencies: ["CLibcrypto"], path: "Examples/ExampleIssuerBackend"),
    .executableTarget(name: "WNonUIExt", dependencies: ["WalletExtensionKit", "ExampleIssuerBackend"], path: "Examples/SampleIssuer/WNonUIExt"),
    .executableTarget(name: "WUIExt", dependencies: ["WalletExtensionKit"], path: "Examples/SampleIssuer/WUIExt"),
    .executableTarget(name: "SampleIssuerApp", dependencies: ["WalletExtensionKit"], path: "Examples/SampleIssuer/SampleIssuerApp"),
    .executableTarget(name: "TestHelperExt", dependencies: ["WalletExtensionKit", "CWalletSpawn", "ExampleIssuerBackend"], path: "Examples/TestHelperExt"),
    // Writes the README's MyIssuer.ipa, a device build with one broken entitlement (scripts/example-ipa).
    .executableTarget(name: "MakeExampleIPA", dependencies: ["DeviceBuildFixtures"], path: "Examples/MakeExampleIPA"),
]

/// iOS-style extensions for each pattern (issue 19), run through add-card by IntegrationTests/IssuerPatternTests:
/// a networked non-UI extension (a file importing only Foundation uses URLSession) and a UIKit login screen, both
/// in Swift 5 mode as issuers write them, and a SwiftUI login; all call a backend, so all see FoundationNetworking
/// through the flag docs/SDK.md gives issuers.
let seeNetworking = SwiftSetting.unsafeFlags(["-Xfrontend", "-import-module", "-Xfrontend", "FoundationNetworking"])
let patternExtensions: [Target] = [
    .executableTarget(name: "PatternNonUIExt", dependencies: ["WalletExtensionKit"], path: "Examples/PatternIssuer/PatternNonUIExt",
                      swiftSettings: [seeNetworking, .swiftLanguageMode(.v5)]),
    .executableTarget(name: "PatternUIKitExt", dependencies: ["WalletExtensionKit"], path: "Examples/PatternIssuer/PatternUIKitExt",
                      swiftSettings: [seeNetworking, .swiftLanguageMode(.v5)]),
    .executableTarget(name: "PatternSwiftUIExt", dependencies: ["WalletExtensionKit", "SwiftUI"], path: "Examples/PatternIssuer/PatternSwiftUIExt",
                      swiftSettings: [seeNetworking]),
]

/// An issuer's non-UI extension written exactly as for iOS (the Wallet Extensions guide's
/// style, dependencies injected), with the XCTest unit tests an issuer writes for it.
let guideIssuerTargets: [Target] = [
    .target(name: "GuideNonUIExt", dependencies: ["WalletExtensionKit"], path: "Examples/GuideIssuer/GuideNonUIExt"),
    .testTarget(name: "GuideIssuerTests", dependencies: ["GuideNonUIExt", "WalletExtensionKit"], path: "Examples/GuideIssuer/Tests"),
]

/// Benchmark programs, run by scripts/bench (never by the tests).
let benchmarkExecutables: [Target] = [
    .executableTarget(name: "BareSwiftProcess", path: "Benchmarks/BareSwiftProcess"),
    .executableTarget(name: "MinimalStatusExt", dependencies: ["WalletExtensionKit"], path: "Benchmarks/MinimalStatusExt"),
    .executableTarget(name: "HostBench", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "Wallet", "WalletWire", "CWalletSpawn"],
                         path: "Benchmarks/HostBench"),
    .executableTarget(name: "DaemonBench", dependencies: ["WalletDaemon", "WalletHostRuntime", "WalletBundleInspection", "Wallet", "WalletWire"],
                      path: "Benchmarks/DaemonBench"),
]

// Linux only. The host spawns extensions through CWalletSpawn, which needs Linux system calls
// (`prctl(PR_SET_PDEATHSIG)`, `pidfd_open`, `close_range`), measures footprint from /proc and
// imports Glibc; WalletWire and the SDK import FoundationEssentials, which is not a module on
// Apple platforms. So no `platforms:` list: there is no macOS or iOS build to declare.
let package = Package(
    name: "WalletExtensionHost",
    products: [
        .executable(name: "wallet-host", targets: ["WalletHostCLI"]),
        // The SDK: one product that brings the runtime entry (`WalletExtension.main`) and every
        // compatibility module, so that extension code written for iOS imports what it did there.
        .library(name: "WalletExtensionKit", targets: ["WalletExtensionKit"] + compatibilityModules + testingOverlayStandIns),
        .library(name: "SwiftUI", targets: swiftUIModules),
        .library(name: "WalletWire", targets: ["WalletWire"]),
    ],
    targets: [
        .target(name: "CWalletSpawn"),
        // epoll for the daemon's client loop (<sys/epoll.h> is not in Swift's Glibc module).
        .target(name: "CWalletPoll"),
        // malloc_trim, for the daemon to give freed memory back (<malloc.h> is not in Swift's Glibc module).
        .target(name: "CWalletMemory"),
        // statfs's file-system type, for the apps watch (<sys/vfs.h> is not in Swift's Glibc module).
        .target(name: "CWalletFileSystem"),
        // PID 1 of each sandboxed extension's PID namespace (C, beside wallet-host; see its main.c).
        // Linked statically: it starts in 0.4 ms instead of 1.6 ms spent loading the Swift runtime
        // it does not use, which SwiftPM links into every executable.
        .executableTarget(name: "WalletSandboxInit", dependencies: ["CWalletSpawn"],
                          linkerSettings: [.unsafeFlags(["-static-executable"])]),
        // zlib, for reading .ipa archives (Debian's zlib1g-dev; .ci/run installs it).
        .systemLibrary(name: "CZlib", path: "Sources/CZlib", providers: [.apt(["zlib1g-dev"])]),
        // OpenSSL's libcrypto, for the provisioning PKI and ECC_V2 decryption (Debian's libssl-dev;
        // .ci/run installs it). Used by Wallet (so the CLI) and the examples' backend only: never by
        // the runtime, the wire module or the SDK. Not linked: libcrypto.so.3 is loaded on first use.
        .target(name: "CLibcrypto"),
        .target(name: "WalletWire"),
        // The system calls (EINTR retried, errno thrown) both the host runtime and the extension
        // side make: a module of its own so that an extension does not link the host runtime.
        .target(name: "WalletSystemCalls"),
        // The extension side of the wire protocol, beneath every compatibility module.
        .target(name: "WalletExtensionRuntime", dependencies: ["WalletWire", "WalletSystemCalls"]),
        .target(name: "CoreGraphics", dependencies: ["FreeTypeText"]),
        .target(name: "CoreImage", dependencies: ["CoreGraphics"]),
        .target(name: "ImageIO", dependencies: ["CoreGraphics"]),
        // The Clang module `os` with a `log` submodule, so that `import os.log` finds Sources/os as its overlay.
        .systemLibrary(name: "OSLogModuleMap"),
        .target(name: "os", dependencies: ["OSLogModuleMap", "WalletExtensionRuntime"]),
        .target(name: "OSLog", dependencies: ["os"]),
        .target(name: "Combine"),
        // The Cassowary constraint solver behind UIKit's Auto Layout.
        .target(name: "Cassowary"),
        .target(name: "UIKit", dependencies: ["CoreGraphics", "CoreImage", "Security", "WalletExtensionRuntime", "WalletWire",
                                              "PreviewMacros", "Cassowary"]),
        .target(name: "LocalAuthentication", dependencies: ["WalletExtensionRuntime"]),
        .target(name: "WatchConnectivity", dependencies: ["WalletExtensionRuntime", "WalletWire"]),
        .target(name: "Security", dependencies: ["CoreGraphics", "WalletExtensionRuntime", "WalletWire"]),
        .target(name: "PassKit", dependencies: ["UIKit", "Security", "WalletExtensionRuntime", "WalletWire",
                                                "FoundationSendableConformances"]),
        .target(name: "SwiftUI", dependencies: ["UIKit", "Combine", "PreviewMacros"]),
    ] + testingOverlayStandIns.map { .target(name: $0) } + [
        // SwiftUI and Combine are not linked into every extension (their type metadata costs
        // each launch); a UI extension that uses them names the product SwiftUI too.
        .target(name: "WalletExtensionKit",
                dependencies: (compatibilityModules + testingOverlayStandIns).map { .target(name: $0) }
                    + ["WalletExtensionRuntime", "WalletWire"]),
        // What the runtime, bundle inspection and import share without running anything: extension
        // points and their registry, extension descriptors, App Group identifiers, numbers for people.
        .target(name: "ExtensionModel"),
        // The host runtime: spawn, sandbox, limit and supervise extension processes, talk
        // JSON-RPC to them, events. Generic over extension points; no zlib, no Wallet.
        // Re-exports ExtensionModel.
        .target(name: "WalletHostRuntime", dependencies: ["ExtensionModel", "WalletWire", "WalletSystemCalls", "CWalletSpawn", "CWalletPoll"]),
        // HTML pages, SVG charts and JUnit XML, written by validate, conform and stress.
        .target(name: "WalletReports"),
        // Static inspection of bundles and device builds: manifests, entitlements,
        // `.ipa`/`.xcarchive`/Mach-O (with zlib), validation reports.
        .target(name: "WalletBundleInspection", dependencies: ["ExtensionModel", "WalletReports", "WalletWire", "CZlib"]),
        // The conformance engine: checks, profiles, suites and their reports, for any extension point.
        .target(name: "ConformanceEngine", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "WalletReports", "WalletWire"]),
        // Apple Wallet: its two extension points and bundle rules, the simulated device, host
        // services, the add-card flow, entry and request validation, its conformance profile.
        .target(name: "Wallet", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "ConformanceEngine", "WalletReports", "WalletWire",
                                               "CLibcrypto"]),
        // `wallet-host stress`: load, latency, memory growth, chaos, CPU share, reports (issue 10).
        .target(name: "CWalletChaos"),
        .target(name: "WalletStress", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "WalletReports", "Wallet", "WalletWire",
                                                     "CWalletChaos"]),
        // The daemon's client API apart from the server: DaemonClient, the method table (names,
        // params, results), the Unix socket calls; `call`, `add-card` and the rest link it alone.
        .target(name: "WalletDaemonClient", dependencies: ["ExtensionModel", "WalletHostRuntime", "Wallet", "WalletWire"]),
        // The host daemon (`wallet-host serve`): socket server, warm extension pool, the methods.
        // Re-exports WalletDaemonClient.
        .target(name: "WalletDaemon", dependencies: ["WalletDaemonClient", "WalletHostRuntime", "WalletBundleInspection", "Wallet",
                                                    "ConformanceEngine", "WalletWire", "CWalletPoll", "CWalletMemory",
                                                    "CWalletFileSystem"]),
        // Building a package's extensions and assembling APP.app/PlugIns/EXT.appex folders: what `import`, `bundle`
        // and `serve --watch` share (Foundation only).
        .target(name: "PackageBundles"),
        // `wallet-host import`: an issuer's Xcode project read, turned into a package and assembled bundles (issue 20).
        .target(name: "XcodeImport", dependencies: ["ExtensionModel", "PackageBundles"]),
        .executableTarget(name: "WalletHostCLI", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "ConformanceEngine", "Wallet",
                                                               "WalletWire", "WalletStress", "WalletDaemon", "WalletDaemonClient",
                                                               "XcodeImport", "PackageBundles"]),
        // What the test targets share (paths, example bundles, temporary directories, polling,
        // PNGs, running wallet-host): Foundation and Testing only, so every test target can use it.
        .target(name: "WalletTestSupport", path: "Tests/WalletTestSupport"),
        // What the test targets share that needs host types (example runners, the add-card fixture).
        .target(name: "WalletHostTestSupport", dependencies: ["WalletTestSupport", "WalletHostRuntime", "WalletBundleInspection", "Wallet",
                                                              "WalletWire"],
                path: "Tests/WalletHostTestSupport"),
        // Device builds made in code (zip, Mach-O with a code signature, CMS-wrapped profile):
        // the tests' fixtures and the README's example .ipa (Examples/MakeExampleIPA).
        .target(name: "DeviceBuildFixtures", dependencies: ["CZlib"], path: "Tests/DeviceBuildFixtures"),
        .testTarget(name: "WalletWireTests", dependencies: ["WalletWire", "WalletTestSupport"]),
        .testTarget(name: "CassowaryTests", dependencies: ["Cassowary"]),
        .testTarget(name: "WalletExtensionKitTests", dependencies: ["WalletExtensionKit", "SwiftUI", "WalletExtensionRuntime", "WalletWire",
                                                                   "WalletTestSupport"]),
        .testTarget(name: "WalletHostRuntimeTests", dependencies: ["WalletHostRuntime", "ExtensionModel", "WalletWire", "CWalletSpawn",
                                                                  "WalletTestSupport"]),
        // Inspection against Wallet's points and rules (the Wallet module declares them).
        .testTarget(name: "WalletBundleInspectionTests", dependencies: ["WalletBundleInspection", "WalletHostRuntime", "Wallet",
                                                                        "WalletWire", "WalletTestSupport", "DeviceBuildFixtures"]),
        .testTarget(name: "WalletReportsTests", dependencies: ["WalletReports"]),
        .testTarget(name: "WalletTests", dependencies: ["Wallet", "WalletHostRuntime", "ConformanceEngine", "WalletWire", "WalletTestSupport"]),
        .testTarget(name: "WalletHostCLITests", dependencies: ["WalletTestSupport", "DeviceBuildFixtures"]),
        .testTarget(name: "WalletStressTests", dependencies: ["WalletStress", "WalletHostRuntime", "WalletBundleInspection", "Wallet", "WalletWire",
                                                              "WalletTestSupport", "WalletHostTestSupport"]),
        .testTarget(name: "XcodeImportTests", dependencies: ["XcodeImport", "WalletTestSupport"]),
        .testTarget(name: "PackageBundlesTests", dependencies: ["PackageBundles", "WalletTestSupport"]),
        .testTarget(name: "SecurityTests", dependencies: ["Security", "WalletWire"]),
        .testTarget(name: "WalletDaemonTests", dependencies: ["WalletDaemon", "WalletHostRuntime", "WalletBundleInspection", "Wallet", "WalletWire",
                                                               "WalletTestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["WalletHostRuntime", "WalletBundleInspection", "ConformanceEngine", "Wallet",
                                                             "WalletWire", "WalletTestSupport", "WalletHostTestSupport"],
                    exclude: ["Fixtures"]),
        // `#Preview` (UIKit, SwiftUI): a compiler plugin whose expansions are empty, written against the
        // compiler's plugin protocol without swift-syntax (no package dependencies).
        .macro(name: "PreviewMacros"),
        // Foundation's own `Sendable` conformance of UserDefaults is declared unavailable on Linux; ours
        // restates it, which the compiler warns about on every build of a user's extension. The warning
        // has no group to silence, so this one-file module is compiled without warnings.
        .target(name: "FoundationSendableConformances", swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
        // FreeType's headers (pkg-config), for CFreeTypeLoader: text drawn in image contexts (NSString.draw)
        // with real glyphs. Not linked: libfreetype.so.6 is loaded on first use, so no extension that
        // never draws text pays for it. Debian's libfreetype-dev and fonts-dejavu-core (scripts/install-dependencies).
        .systemLibrary(name: "CFreeTypeHeaders", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        .target(name: "CFreeTypeLoader", dependencies: ["CFreeTypeHeaders"]),
        // The Swift side of CFreeTypeLoader, importing it implementation-only (so that no module importing
        // CoreGraphics needs FreeType's module) and built without warnings (that import's note would
        // otherwise reach every user build).
        .target(name: "FreeTypeText", dependencies: ["CFreeTypeLoader"], swiftSettings: [.unsafeFlags(["-suppress-warnings"])]),
    ] + exampleExecutables + patternExtensions + guideIssuerTargets + benchmarkExecutables
)
