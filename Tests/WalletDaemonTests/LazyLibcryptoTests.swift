import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// libcrypto.so.3 is loaded on the first provisioning operation (Sources/CLibcrypto), not linked:
/// an idle daemon never maps it (issue 18: ~1.5 MB of its RSS), a provisioning call through the
/// daemon still works, and without the library the CLI says which library is missing and how to install it.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct LazyLibcryptoTests {
    /// The files named libcrypto that `pid` has mapped (`/proc/PID/maps`, read to its end:
    /// `String(contentsOfFile:)` stops at the 4 KB that procfs reports).
    static func mappedLibcrypto(_ pid: Int32) throws -> Set<String> {
        let file = try FileHandle(forReadingFrom: URL(fileURLWithPath: "/proc/\(pid)/maps"))
        defer { try? file.close() }
        let maps = String(decoding: try file.readToEnd() ?? Data(), as: UTF8.self)
        return Set(maps.split(separator: "\n").compactMap { line -> String? in
            guard let path = line.split(separator: " ", maxSplits: 5, omittingEmptySubsequences: true).dropFirst(5).first else { return nil }
            let trimmed = path.trimmingCharacters(in: .whitespaces)
            return (trimmed as NSString).lastPathComponent.hasPrefix("libcrypto.so") ? trimmed : nil
        })
    }

    @Test func theDaemonMapsLibcryptoOnlyOnceAProvisioningCallNeedsIt() async throws {
        let apps = try appsDirectory(with: [ExampleBundles.testHelperApp])
        let appex = apps.appendingPathComponent("TestHelper.app/PlugIns/TestHelperExt.appex").path
        // What is mapped is the point, not Wallet's 100 ms: a cold status on a loaded 2-core machine
        // (launch and handshake included) can miss it, and the call would fail for that alone.
        let daemon = try await DaemonProcess(apps: apps, arguments: ["--deadline", "status=2s"]).waitUntilServing()
        #expect(try Self.mappedLibcrypto(daemon.pid).isEmpty, "a daemon that has done no provisioning crypto")
        let status = try WalletHostCommand.run(["call", appex, "status", "--json", "--state", daemon.state.path])
        #expect(status.status == 0, "\(status.standardError)")
        #expect(try Self.mappedLibcrypto(daemon.pid).isEmpty, "a call that needs no crypto")

        let params = #"{"identifier":"HELPER-0001","configuration":{"encryptionScheme":"ECC_V2","cardholderName":"Test Helper","#
            + #""primaryAccountSuffix":"0001","style":"payment","cardDetails":[],"productIdentifiers":[],"#
            + #""requiresFelicaSecureElement":false}}"#
        let provisioning = try WalletHostCommand.run(["call", appex, "generateAddPaymentPassRequest", "--params", params, "--json",
                                                      "--state", daemon.state.path])
        #expect(provisioning.status == 0, "\(provisioning.standardError)")
        let verification = try #require(try provisioning.json()["verification"] as? [String: Any], "\(provisioning.standardOutput)")
        #expect(verification["status"] as? String == "verified", "\(verification)")
        #expect(!(try Self.mappedLibcrypto(daemon.pid).isEmpty), "the daemon made the chain and decrypted the request itself")
    }

    @Test("without a loadable libcrypto.so.3 a provisioning command names it and how to install it",
          .enabled(if: KernelNamespaces.available, "the kernel refuses the mount namespace that hides the library"))
    func aMissingLibcryptoIsNamed() throws {
        let library = try #require(try Self.libcryptoPath(), "this test process cannot load libcrypto.so.3 itself")
        let empty = TemporaryDirectory.uniqueURL(prefix: "empty-libcrypto")
        _ = FileManager.default.createFile(atPath: empty.path, contents: Data())
        defer { try? FileManager.default.removeItem(at: empty) }
        let out = TemporaryDirectory.uniqueURL(prefix: "wallet-host-challenge")
        defer { try? FileManager.default.removeItem(at: out) }
        // A private mount namespace in which the library is an empty file: dlopen finds it and fails.
        let launcher = ["/usr/bin/unshare"] + (geteuid() == 0 ? [] : ["--user", "--map-root-user"])
            + ["--mount", "/bin/sh", "-c", "mount --bind \"$1\" \"$2\" && shift 2 && exec \"$@\"", "sh", empty.path, library]
        let run = try WalletHostCommand.run(["provisioning", "challenge", "--out", out.path], launcher: launcher)
        #expect(run.status != 0)
        #expect(run.standardError.contains("cannot load libcrypto.so.3"), "\(run.standardError)")
        #expect(run.standardError.contains("scripts/install-dependencies"), "\(run.standardError)")
        #expect(!run.standardError.contains("Fatal error"), "a thrown error, not a crash: \(run.standardError)")
    }

    /// Where libcrypto.so.3 is on this machine: loaded in this test process, then read from its maps.
    static func libcryptoPath() throws -> String? {
        guard dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL) != nil else { return nil }
        return try mappedLibcrypto(getpid()).first { $0.hasSuffix("libcrypto.so.3") }
    }
}
