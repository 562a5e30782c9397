import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

@Suite("Reading project.pbxproj: groups, synchronized folders, phases")
struct ProjectFileReaderTests {
    private func read() throws -> (XcodeProject, TemporaryDirectory) {
        let directory = try TemporaryDirectory(prefix: "xcode-import-read")
        let synthetic = try SyntheticProject(root: directory.url)
        return (try ProjectFileReader.read(synthetic.xcodeproj), directory)
    }

    private func names(_ urls: [URL], below root: URL) -> [String] {
        urls.map { String($0.path.dropFirst(root.standardizedFileURL.path.count + 1)) }
    }

    @Test("classic groups resolve through their parents; a file in two sources phases is in both targets")
    func classicGroupsAndSharedFile() throws {
        let (project, directory) = try read()
        defer { directory.remove() }
        #expect(project.objectVersion == 77)
        #expect(project.targets.map(\.name) == ["AcmeBank", "AcmeCards", "AcmeLogin", "AcmeCardsTests"])
        let cards = try #require(project.targets.first { $0.name == "AcmeCards" })
        #expect(names(cards.swiftSources, below: directory.url) == ["AcmeCards/AcmeCardsHandler.swift", "Shared/CardStore.swift"])
        #expect(names(cards.resources, below: directory.url) == ["AcmeCards/Art.xcassets"])
        let app = try #require(project.targets.first { $0.name == "AcmeBank" })
        #expect(app.embeddedTargetIdentifiers == ["CARDS_TARGET", "LOGIN_TARGET"])
    }

    @Test("a synchronized folder gives its files to the target that lists it, minus its exception set")
    func synchronizedFolder() throws {
        let (project, directory) = try read()
        defer { directory.remove() }
        let login = try #require(project.targets.first { $0.name == "AcmeLogin" })
        #expect(names(login.swiftSources, below: directory.url) == ["Shared/CardStore.swift", "AcmeLogin/LoginViewController.swift"])
        #expect(login.resources.isEmpty, "Info.plist is a manifest, not a resource")
    }

    @Test("an exception set for a target that does not list the folder adds the file to it")
    func exceptionAddsToOtherTarget() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-toggle")
        defer { directory.remove() }
        for name in ["A.swift", "B.swift"] {
            try Data().write(to: directory.url.appendingPathComponent(name))
        }
        let folder = SynchronizedFolder(url: directory.url, membershipExceptions: ["OWNER": ["B.swift"], "OTHER": ["B.swift"]])
        #expect(folder.files(of: "OWNER", listsFolder: true) == ["A.swift"])
        #expect(folder.files(of: "OTHER", listsFolder: false) == ["B.swift"])
        #expect(folder.files(of: "THIRD", listsFolder: false).isEmpty)
    }

    @Test("Objective-C, storyboards and script phases each get a line")
    func unsupportedLines() throws {
        let (project, directory) = try read()
        defer { directory.remove() }
        let lines = project.targets.flatMap(\.unsupported)
        #expect(lines.contains { $0.hasPrefix("LegacyBridge.m: Objective-C") })
        #expect(lines.contains { $0.hasPrefix("Main.storyboard: storyboards") })
        #expect(lines.contains("script phase \"Upload Symbols\" is not run"))
    }

    @Test("a missing or unreadable project file is named")
    func unreadable() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-bad")
        defer { directory.remove() }
        let project = directory.url.appendingPathComponent("Broken.xcodeproj")
        #expect(throws: ImportError.self) { try ProjectFileReader.read(project) }
        try FileManager.default.createDirectory(at: project, withIntermediateDirectories: true)
        try Data("{ objects = ( ".utf8).write(to: project.appendingPathComponent("project.pbxproj"))
        let error = try #require(throws: ImportError.self) { try ProjectFileReader.read(project) }
        #expect(error.description.contains("Broken.xcodeproj/project.pbxproj"))
    }
}
