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
]

let package = Package(
    name: "WalletExtensionHost",
    platforms: [.macOS(.v15)],
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
        .executableTarget(name: "WalletHostCLI", dependencies: ["WalletHostCore", "WalletSimulator", "WalletWire"]),
        .testTarget(name: "WalletWireTests", dependencies: ["WalletWire"]),
        .testTarget(name: "WalletExtensionKitTests", dependencies: ["WalletExtensionKit", "WalletWire"]),
        .testTarget(name: "WalletHostCoreTests", dependencies: ["WalletHostCore", "WalletWire", "CWalletSpawn"]),
        .testTarget(name: "WalletSimulatorTests", dependencies: ["WalletSimulator", "WalletHostCore", "WalletWire"]),
        .testTarget(name: "IntegrationTests", dependencies: ["WalletHostCore", "WalletSimulator", "WalletWire"],
                    exclude: ["Fixtures"]),
    ] + exampleExecutables + benchmarkExecutables
)
