import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport
#if canImport(Glibc)
import Glibc
#endif

/// Issue 31, break 10: a hostile project made `import` copy the importing user's files into the
/// bundle its extension reads: a Copy Bundle Resources file at an absolute path (`~/.ssh/id_rsa`),
/// an `.xcconfig` `#include` of a file outside the project (`~/.aws/credentials`, whose lines
/// parse as settings and expand into the Info.plist). Nothing outside the project's directory is
/// read unless the user names it (`--allow-outside`); each refusal is a `not carried:` line.
@Suite("import reads nothing outside the project unless allowed")
struct ImportBoundaryTests {
    /// A project directory `Bank` beside a `home` holding the user's secrets.
    struct Hostile {
        let directory: TemporaryDirectory
        var root: URL { directory.url.appendingPathComponent("Bank") }
        var home: URL { directory.url.appendingPathComponent("home") }
        var key: URL { home.appendingPathComponent(".ssh/id_rsa") }
        var credentials: URL { home.appendingPathComponent(".aws/credentials") }

        init() throws {
            directory = try TemporaryDirectory(prefix: "xcode-import-boundary")
            for (file, text) in [(key, "-----BEGIN OPENSSH PRIVATE KEY----- KEYSECRET"),
                                 (credentials, "AWS_SECRET = AWSSECRET\nINFOPLIST_KEY_Leaked = $(AWS_SECRET)\n")] {
                try FileManager.default.createDirectory(at: file.deletingLastPathComponent(), withIntermediateDirectories: true)
                try Data(text.utf8).write(to: file)
            }
        }
    }

    static func text(_ data: Data) -> String { String(decoding: data, as: UTF8.self) }

    /// The extension's Info.plist, with a key that expands a setting only the credentials define.
    static let leakingInfo = MiniProject.walletInfo + "<key>Leak</key><string>$(AWS_SECRET)</string>"

    @Test("a Copy Bundle Resources file at an absolute path outside is not carried, with a line naming it and --allow-outside")
    func absoluteResource() throws {
        let hostile = try Hostile()
        defer { hostile.directory.remove() }
        let project = try MiniProject(root: hostile.root, resources: ["KEY"], objects: """
            KEY = {isa = PBXFileReference; path = "\(hostile.key.path)"; sourceTree = "<absolute>"; };
            """)
        let plan = try project.plan()
        let bundle = try #require(plan.extensions.first)
        #expect(!bundle.resources.contains { $0.lastPathComponent == "id_rsa" }, "\(bundle.resources)")
        let line = "target Ext: Copy Bundle Resources file \(hostile.key.path) is outside the project directory "
            + "\(ProjectBoundary.resolved(hostile.root.path)); not read (--allow-outside \(hostile.key.path) would read it)"
        #expect(plan.notCarried.contains(line), "\(plan.notCarried)")
        // Named by the user: carried.
        let allowed = try project.plan(allowOutside: [hostile.key])
        #expect(try #require(allowed.extensions.first).resources.contains { $0.lastPathComponent == "id_rsa" })
        #expect(!allowed.notCarried.contains { $0.contains("id_rsa") }, "\(allowed.notCarried)")
    }

    @Test("a link inside the project that points outside is outside")
    func linkInside() throws {
        let hostile = try Hostile()
        defer { hostile.directory.remove() }
        let project = try MiniProject(root: hostile.root, resources: ["LINK"], objects: """
            LINK = {isa = PBXFileReference; path = "Ext/notes.txt"; sourceTree = "<group>"; };
            """)
        try FileManager.default.createSymbolicLink(atPath: hostile.root.appendingPathComponent("Ext/notes.txt").path,
                                                   withDestinationPath: hostile.key.path)
        let plan = try project.plan()
        #expect(try #require(plan.extensions.first).resources.isEmpty)
        let line = try #require(plan.notCarried.first { $0.contains("notes.txt") }, "\(plan.notCarried)")
        #expect(line.contains("(it resolves to \(ProjectBoundary.resolved(hostile.key.path)))") && line.contains("--allow-outside"), "\(line)")
    }

    @Test("an .xcconfig #include of a file outside is not read: its settings do not reach the Info.plist")
    func includeOutside() throws {
        let hostile = try Hostile()
        defer { hostile.directory.remove() }
        let project = try MiniProject(
            root: hostile.root, extensionInfo: Self.leakingInfo,
            objects: #"XCCONFIG = {isa = PBXFileReference; path = "Ext/Ext.xcconfig"; sourceTree = "<group>"; };"#,
            files: ["Ext/Ext.xcconfig": "#include \"\(hostile.credentials.path)\"\nOWN = 1\n"],
            extensionConfiguration: "baseConfigurationReference = XCCONFIG;")
        let plan = try project.plan()
        let bundle = try #require(plan.extensions.first)
        #expect(!Self.text(bundle.infoPlist).contains("AWSSECRET"), "\(Self.text(bundle.infoPlist))")
        let line = try #require(plan.notCarried.first { $0.contains(hostile.credentials.path) }, "\(plan.notCarried)")
        #expect(line.hasPrefix("target Ext: \(hostile.root.path)/Ext/Ext.xcconfig: #include \(hostile.credentials.path) is outside"), "\(line)")
        #expect(line.contains("--allow-outside \(hostile.credentials.path)"), "\(line)")
        // Allowed (the directory): read.
        let allowed = try project.plan(allowOutside: [hostile.home.appendingPathComponent(".aws")])
        #expect(Self.text(try #require(allowed.extensions.first).infoPlist).contains("AWSSECRET"))
    }

    @Test("a base configuration file outside is not read either, with a line")
    func baseConfigurationOutside() throws {
        let hostile = try Hostile()
        defer { hostile.directory.remove() }
        let project = try MiniProject(
            root: hostile.root, extensionInfo: Self.leakingInfo,
            objects: "CREDENTIALS = {isa = PBXFileReference; path = \"\(hostile.credentials.path)\"; sourceTree = \"<absolute>\"; };",
            extensionConfiguration: "baseConfigurationReference = CREDENTIALS;")
        let plan = try project.plan()
        #expect(!Self.text(try #require(plan.extensions.first).infoPlist).contains("AWSSECRET"))
        #expect(plan.notCarried.contains { $0.hasPrefix("target Ext: configuration Release: base configuration file \(hostile.credentials.path) is outside") },
                "\(plan.notCarried)")
    }

    @Test("wallet-host import prints each refusal as a not carried: line, and --allow-outside reads the file")
    func command() throws {
        let hostile = try Hostile()
        defer { hostile.directory.remove() }
        let project = try MiniProject(root: hostile.root, resources: ["KEY"], objects: """
            KEY = {isa = PBXFileReference; path = "\(hostile.key.path)"; sourceTree = "<absolute>"; };
            """)
        let out = hostile.directory.url.appendingPathComponent("Out")
        let arguments = ["import", project.xcodeproj.path, "--out", out.path, "--sdk", BuildProducts.repositoryRoot.path, "--skip-build"]
        let refused = try WalletHostCommand.run(arguments)
        #expect(refused.status == 0, "\(refused.standardError)")
        #expect(refused.standardOutput.contains("not carried: target Ext: Copy Bundle Resources file \(hostile.key.path) is outside"),
                "\(refused.standardOutput)")
        let allowed = try WalletHostCommand.run(arguments + ["--allow-outside", hostile.key.path])
        #expect(allowed.status == 0, "\(allowed.standardError)")
        #expect(!allowed.standardOutput.contains("id_rsa"), "\(allowed.standardOutput)")
    }
}
