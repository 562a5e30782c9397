// swift-tools-version:6.0
import PackageDescription

/// Example extensions and containing apps: executable targets built from Examples/.
/// Each is assembled into a real `.app/PlugIns/*.appex` bundle by scripts/make-bundles.
let exampleExecutables: [Target] = [
    .executableTarget(name: "WNonUIExt", dependencies: ["WalletExtensionKit"], path: "Examples/SampleIssuer/WNonUIExt"),
    .executableTarget(name: "WUIExt", dependencies: ["WalletExtensionKit"], path: "Examples/SampleIssuer/WUIExt"),
    .executableTarget(name: "SampleIssuerApp", dependencies: ["WalletExtensionKit"], path: "Examples/SampleIssuer/SampleIssuerApp"),
    .executableTarget(name: "TestHelperExt", dependencies: ["WalletExtensionKit", "CWalletSpawn"], path: "Examples/TestHelperExt"),
]

/// Benchmark programs, run by scripts/bench (never by the tests).
let benchmarkExecutables: [Target] = [
    .executableTarget(name: "BareSwiftProcess", path: "Benchmarks/BareSwiftProcess"),
    .executableTarget(name: "MinimalStatusExt", dependencies: ["WalletExtensionKit"], path: "Benchmarks/MinimalStatusExt"),
    .executableTarget(name: "HostBench", dependencies: ["WalletHostCore", "WalletWire", "CWalletSpawn"], path: "Benchmarks/HostBench"),
    .executableTarget(name: "DaemonBench", dependencies: ["WalletDaemon", "WalletHostCore", "WalletSimulator", "WalletWire"],
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
        .library(name: "WalletExtensionKit", targets: ["WalletExtensionKit"]),
        .library(name: "WalletWire", targets: ["WalletWire"]),
    ],
    targets: [
        .target(name: "CWalletSpawn"),
        .target(name: "WalletWire"),
        .target(name: "WalletExtensionKit", dependencies: ["WalletWire"]),
        .target(name: "WalletHostCore", dependencies: ["WalletWire", "CWalletSpawn"]),
        .target(name: "WalletSimulator", dependencies: ["WalletHostCore", "WalletWire"]),
        // The host daemon (`wallet-host serve`): socket server, warm extension pool, client API.
        .target(name: "WalletDaemon", dependencies: ["WalletHostCore", "WalletSimulator", "WalletWire"]),
        .executableTarget(name: "WalletHostCLI", dependencies: ["WalletHostCore", "WalletSimulator", "WalletWire", "WalletDaemon"]),
        // What the test targets share (paths, example bundles, temporary directories, polling,
        // PNGs, running wallet-host): Foundation and Testing only, so every test target can use it.
        .target(name: "WalletTestSupport", path: "Tests/WalletTestSupport"),
        .testTarget(name: "WalletWireTests", dependencies: ["WalletWire", "WalletTestSupport"]),
        .testTarget(name: "WalletExtensionKitTests", dependencies: ["WalletExtensionKit", "WalletWire", "WalletTestSupport"]),
        .testTarget(name: "WalletHostCoreTests", dependencies: ["WalletHostCore", "WalletWire", "CWalletSpawn", "WalletTestSupport"]),
        .testTarget(name: "WalletSimulatorTests", dependencies: ["WalletSimulator", "WalletHostCore", "WalletWire", "WalletTestSupport"]),
        .testTarget(name: "WalletHostCLITests", dependencies: ["WalletTestSupport"]),
        .testTarget(name: "WalletDaemonTests", dependencies: ["WalletDaemon", "WalletHostCore", "WalletSimulator", "WalletWire",
                                                               "WalletTestSupport"]),
        .testTarget(name: "IntegrationTests", dependencies: ["WalletHostCore", "WalletSimulator", "WalletWire", "WalletTestSupport"],
                    exclude: ["Fixtures"]),
    ] + exampleExecutables + benchmarkExecutables
)
