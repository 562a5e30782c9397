import Foundation
import Testing
import WalletTestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 14: `--state ""` was the working directory, which the host chmodded 0700 and
/// filled with state files (a shared 1777 directory lost its sticky bit). Every path option now
/// refuses an empty value, and the host never chmods a state directory it did not create.
@Suite("Empty path options and state directories the host did not create", .timeLimit(.minutes(1)))
struct EmptyPathOptionTests {
    /// A scratch directory shared the way /tmp is: mode 1777.
    private static func sharedScratch() throws -> TemporaryDirectory {
        let scratch = try TemporaryDirectory(prefix: "wallet-host-shared")
        #expect(chmod(scratch.url.path, 0o1777) == 0)
        return scratch
    }

    private static func mode(_ path: String) -> mode_t {
        var status = stat()
        _ = stat(path, &status)
        return status.st_mode & 0o7777
    }

    @Test("--state \"\" with a shared 1777 directory as the working directory is a usage error; the directory is untouched",
          arguments: [["passes", "add", "ACCT-1", "--no-daemon"], ["device", "--watch", "unpaired", "--no-daemon"],
                      ["keychain", "add", "--group", "com.example.x", "--secret", "s"]])
    func emptyState(_ command: [String]) throws {
        let scratch = try Self.sharedScratch()
        defer { scratch.remove() }
        let run = try WalletHostCommand.run(command + ["--state", ""], launcher: ["/usr/bin/env", "-C", scratch.url.path])
        #expect(run.status == 2, "\(run.standardError)")
        #expect(run.standardError.contains("--state needs a path, not an empty value"), "\(run.standardError)")
        #expect(Self.mode(scratch.url.path) == 0o1777, "the shared directory lost its mode")
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }

    @Test("every path option refuses an empty value, naming the option", arguments: [
        (["call", "x.appex", "status", "--state="], "--state"),
        (["add-card", "--apps", ""], "--apps"),
        (["conform", "x.appex", "--junit", ""], "--junit"),
        (["stress", "x.appex", "--html", ""], "--html"),
        (["serve", "--socket", ""], "--socket"),
    ])
    func emptyPathOption(_ command: [String], _ option: String) throws {
        let run = try WalletHostCommand.run(command)
        #expect(run.status == 2, "\(command): \(run.standardError)")
        #expect(run.standardError.contains("\(option) needs a path, not an empty value"), "\(command): \(run.standardError)")
    }

    @Test("a state directory others may write to is refused, naming it, its mode and owner, and left as it was")
    func sharedStateDirectory() throws {
        let scratch = try Self.sharedScratch()
        defer { scratch.remove() }
        let run = try WalletHostCommand.run(["passes", "add", "ACCT-1", "--state", scratch.url.path, "--no-daemon"])
        #expect(run.status == 1)
        #expect(run.standardError.contains("refusing the state directory \(scratch.url.path): group or other users may write to it "
                                           + "(mode 1777, owner uid \(geteuid())"), "\(run.standardError)")
        #expect(run.standardError.contains("chmod go-w"), "\(run.standardError)")
        #expect(Self.mode(scratch.url.path) == 0o1777)
        #expect(try FileManager.default.contentsOfDirectory(atPath: scratch.url.path).isEmpty)
    }
}
