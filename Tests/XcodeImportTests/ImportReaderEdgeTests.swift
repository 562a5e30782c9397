import Foundation
import Testing
import WalletTestSupport
@testable import XcodeImport

/// What the reader and planner do with links, broken neighbours and exception sets.
@Suite("Import: links in synchronized folders, other extensions, exception sets")
struct ImportReaderEdgeTests {
    @Test("a synchronized folder's links to folders are not followed (a loop, a way out); links to files are files")
    func symlinkedFolders() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-links")
        defer { directory.remove() }
        let folder = directory.url.appendingPathComponent("Ext")
        let outside = directory.url.appendingPathComponent("Outside")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try Data().write(to: folder.appendingPathComponent("A.swift"))
        try Data().write(to: outside.appendingPathComponent("Secret.swift"))
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("loop").path, withDestinationPath: ".")
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("out").path, withDestinationPath: outside.path)
        try FileManager.default.createSymbolicLink(atPath: folder.appendingPathComponent("B.swift").path,
                                                   withDestinationPath: outside.appendingPathComponent("Secret.swift").path)
        let contents = SynchronizedFolder(url: folder, membershipExceptions: [:]).contents()
        #expect(contents.files == ["A.swift", "B.swift"])
        #expect(contents.linkedFolders == ["loop", "out"])
    }

    @Test("a linked folder in a target's synchronized folder gets a line; an unread exception set is the line of the targets using the folder only")
    func linesOfSynchronizedFolders() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-sync")
        defer { directory.remove() }
        let project = try MiniProject(root: directory.url, objects: """
            FOLDER = {isa = PBXFileSystemSynchronizedRootGroup; exceptions = (PHASE_EXCEPTIONS, ); path = Synced; sourceTree = "<group>"; };
            PHASE_EXCEPTIONS = {isa = PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet; buildPhase = EXT_SOURCES; membershipExceptions = (B.swift, ); };
            """, extensionFolders: ["FOLDER"], files: ["Synced/A.swift": "", "Elsewhere/C.swift": ""])
        try FileManager.default.createSymbolicLink(atPath: directory.url.appendingPathComponent("Synced/more").path,
                                                   withDestinationPath: directory.url.appendingPathComponent("Elsewhere").path)
        let plan = try project.plan()
        #expect(plan.notCarried.contains("target Ext: Synced: PBXFileSystemSynchronizedGroupBuildPhaseMembershipExceptionSet is not read"),
                "\(plan.notCarried)")
        #expect(!plan.notCarried.contains { $0.hasPrefix("target App:") && $0.contains("ExceptionSet") }, "\(plan.notCarried)")
        #expect(plan.notCarried.contains { $0.hasPrefix("target Ext: Synced/more: a symbolic link to a folder; not followed") }, "\(plan.notCarried)")
        #expect(plan.extensions.first?.sources.map(\.lastPathComponent) == ["Handler.swift", "A.swift"])
    }

    @Test("an embedded extension whose Info.plist cannot be read is skipped with a line, not the end of the import")
    func brokenOtherExtension() throws {
        let directory = try TemporaryDirectory(prefix: "xcode-import-widget")
        defer { directory.remove() }
        let project = try MiniProject(root: directory.url, objects: """
            WIDGET = {isa = PBXNativeTarget; buildConfigurationList = WIDGET_CONFIGS; buildPhases = ( ); name = Widget;
                productReference = WIDGET_PRODUCT; productType = "com.apple.product-type.app-extension"; };
            WIDGET_PRODUCT = {isa = PBXFileReference; path = Widget.appex; sourceTree = BUILT_PRODUCTS_DIR; };
            WIDGET_CONFIGS = {isa = XCConfigurationList; buildConfigurations = (WIDGET_RELEASE, ); };
            WIDGET_RELEASE = {isa = XCBuildConfiguration; buildSettings = {INFOPLIST_FILE = Widget/Info.plist; }; name = Release; };
            """, targets: ["WIDGET"], appEmbeds: ["WIDGET_PRODUCT"])
        let plan = try project.plan()
        #expect(plan.extensions.map(\.targetName) == ["Ext"])
        #expect(plan.notCarried.contains { $0.hasPrefix("target Widget: its Info.plist cannot be read to tell whether it is a Wallet extension") },
                "\(plan.notCarried)")
    }
}
