import Foundation

/// Reads one `PBXNativeTarget`: its build phases, synchronized folders, dependencies and
/// configurations, with a line for everything in them the importer cannot carry.
struct TargetReader {
    let table: PBXObjectTable
    let paths: FileReferencePaths
    /// Files outside it are not read (a line each).
    let boundary: ProjectBoundary

    /// `dstSubfolderSpec` of a Copy Files phase into the bundle's `PlugIns` folder.
    static let plugInsFolder = "13"

    func target(_ identifier: String) -> XcodeTarget? {
        guard let object = table.object(identifier), table.isa(identifier) == "PBXNativeTarget",
              let name = PBXObjectTable.string(object, "name") else { return nil }
        let (configurations, _, refused) = ProjectFileReader.buildConfigurations(
            table, list: PBXObjectTable.string(object, "buildConfigurationList"), paths: paths, boundary: boundary)
        var target = XcodeTarget(identifier: identifier, name: name, productType: PBXObjectTable.string(object, "productType") ?? "",
                                 configurations: configurations,
                                 swiftSources: [], resources: [], embeddedTargetIdentifiers: [], dependencyIdentifiers: [], unsupported: refused)
        target.dependencyIdentifiers = PBXObjectTable.strings(object, "dependencies").compactMap {
            PBXObjectTable.string(table.object($0), "target")
        }
        for phase in PBXObjectTable.strings(object, "buildPhases") { read(phase: phase, into: &target) }
        readSynchronizedFolders(of: object, into: &target)
        for product in PBXObjectTable.strings(object, "packageProductDependencies") {
            let productName = PBXObjectTable.string(table.object(product), "productName") ?? product
            target.unsupported.append("Swift package product \(productName) is not added to the generated package")
        }
        return target
    }

    private func read(phase identifier: String, into target: inout XcodeTarget) {
        let phase = table.object(identifier)
        let files = PBXObjectTable.strings(phase, "files").compactMap { PBXObjectTable.string(table.object($0), "fileRef") }
        switch table.isa(identifier) ?? "" {
        case "PBXSourcesBuildPhase":
            for file in files { add(reference: file, asSource: true, into: &target) }
        case "PBXResourcesBuildPhase":
            for file in files { add(reference: file, asSource: false, into: &target) }
        case "PBXFrameworksBuildPhase":
            for file in files {
                let name = displayName(file)
                if name.hasPrefix("Pods_") || name.hasPrefix("libPods-") {
                    target.unsupported.append("CocoaPods: \(name) is linked; pods are not carried")
                }
            }
        case "PBXCopyFilesBuildPhase":
            if PBXObjectTable.string(phase, "dstSubfolderSpec") == Self.plugInsFolder {
                target.embeddedTargetIdentifiers += files.compactMap(targetProducing)
            } else if !files.isEmpty {
                let phaseName = PBXObjectTable.string(phase, "name") ?? "Copy Files"
                target.unsupported.append("Copy Files phase \"\(phaseName)\" (\(files.map(displayName).joined(separator: ", "))) is not carried")
            }
        case "PBXShellScriptBuildPhase":
            let phaseName = PBXObjectTable.string(phase, "name") ?? "Run Script"
            let script = PBXObjectTable.string(phase, "shellScript") ?? ""
            if phaseName.hasPrefix("[CP]") || script.contains("Pods") {
                target.unsupported.append("CocoaPods: script phase \"\(phaseName)\" is not run; pods are not carried")
            } else if script.contains("react-native") {
                target.unsupported.append("React Native: script phase \"\(phaseName)\" is not run; React Native targets are not carried")
            } else {
                target.unsupported.append("script phase \"\(phaseName)\" is not run")
            }
        case "PBXHeadersBuildPhase":
            if !files.isEmpty { target.unsupported.append("Headers phase (\(files.count) headers) is not carried") }
        case let other:
            target.unsupported.append("build phase \(other) is not carried")
        }
    }

    /// Adds a file reference (or every child of a localized variant group) of a sources or resources phase.
    private func add(reference: String, asSource: Bool, into target: inout XcodeTarget) {
        let object = table.object(reference)
        if table.isa(reference) == "PBXVariantGroup" {
            for child in PBXObjectTable.strings(object, "children") { add(reference: child, asSource: asSource, into: &target) }
            return
        }
        guard let url = paths.url(of: reference) else {
            let sourceTree = PBXObjectTable.string(object, "sourceTree") ?? "<group>"
            target.unsupported.append("\(displayName(reference)): no file on disk for this reference (sourceTree \(sourceTree)); not carried")
            return
        }
        if table.isa(reference) == "XCVersionGroup" {
            target.unsupported.append("\(url.lastPathComponent): Core Data models are not carried")
            return
        }
        add(url: url, asSource: asSource, into: &target)
    }

    /// Files by kind: Swift into the sources, what a bundle holds into the resources, a line for the
    /// rest; a file outside the boundary is neither (a line).
    private func add(url: URL, asSource: Bool, into target: inout XcodeTarget) {
        let kind = ProjectFileKind(fileName: url.lastPathComponent)
        if kind == .swift || (!asSource && (kind == .assetCatalog || kind == .resource)),
           let refusal = boundary.refusal(of: url, what: kind == .swift ? "Swift file" : "Copy Bundle Resources file") {
            target.unsupported.append(refusal)
            return
        }
        switch ProjectFileKind(fileName: url.lastPathComponent) {
        case .swift:
            if !target.swiftSources.contains(url) { target.swiftSources.append(url) }
        case .foreignSource:
            target.unsupported.append("\(url.lastPathComponent): Objective-C and C sources are not carried (Swift only)")
        case .interfaceBuilder:
            if !target.interfaceBuilderFiles.contains(url) { target.interfaceBuilderFiles.append(url) }
            target.unsupported.append("\(url.lastPathComponent): storyboards and XIBs are not carried (build the UI in code)")
        case .assetCatalog, .resource:
            if !asSource, !target.resources.contains(url) { target.resources.append(url) }
        case .notCarried(let reason):
            target.unsupported.append("\(url.lastPathComponent): \(reason)")
        case .manifest, .ignored:
            break
        }
    }

    private func readSynchronizedFolders(of object: [String: Any], into target: inout XcodeTarget) {
        let listed = Set(PBXObjectTable.strings(object, "fileSystemSynchronizedGroups"))
        for identifier in table.identifiers(isa: "PBXFileSystemSynchronizedRootGroup") {
            if listed.contains(identifier), let url = paths.url(of: identifier),
               let refusal = boundary.refusal(of: url, what: "synchronized folder") {
                target.unsupported.append(refusal)
                continue
            }
            guard let (folder, unread) = synchronizedFolder(identifier) else { continue }
            let isListed = listed.contains(identifier)
            // Only a target that has files of the folder hears of what in it is not read.
            guard isListed || folder.membershipExceptions[target.identifier] != nil else { continue }
            for isa in unread { target.unsupported.append("\(folder.url.lastPathComponent): \(isa) is not read") }
            let contents = folder.contents()
            for link in contents.linkedFolders {
                target.unsupported.append("\(folder.url.lastPathComponent)/\(link): a symbolic link to a folder; not followed, its files are not carried")
            }
            for relative in folder.files(of: target.identifier, listsFolder: isListed, among: contents.files) {
                let url = folder.url.appendingPathComponent(relative)
                add(url: url, asSource: ProjectFileKind(fileName: url.lastPathComponent) == .swift, into: &target)
            }
        }
    }

    /// A synchronized folder with its membership exceptions, and the kinds of exception sets it has that are not read.
    private func synchronizedFolder(_ identifier: String) -> (SynchronizedFolder, [String])? {
        guard let url = paths.url(of: identifier) else { return nil }
        // Its files are listed from disk: a folder outside the boundary is not even listed.
        guard boundary.admits(url) else { return nil }
        var exceptions: [String: Set<String>] = [:]
        var unread: [String] = []
        for exception in PBXObjectTable.strings(table.object(identifier), "exceptions") {
            let object = table.object(exception)
            switch table.isa(exception) {
            case "PBXFileSystemSynchronizedBuildFileExceptionSet":
                guard let owner = PBXObjectTable.string(object, "target") else { continue }
                exceptions[owner, default: []].formUnion(PBXObjectTable.strings(object, "membershipExceptions"))
            default:
                if let isa = table.isa(exception), !unread.contains(isa) { unread.append(isa) }
            }
        }
        return (SynchronizedFolder(url: url, membershipExceptions: exceptions), unread)
    }

    /// The native target whose `productReference` is `fileReference`.
    private func targetProducing(_ fileReference: String) -> String? {
        table.identifiers(isa: "PBXNativeTarget").first {
            PBXObjectTable.string(table.object($0), "productReference") == fileReference
        }
    }

    private func displayName(_ reference: String) -> String {
        let object = table.object(reference)
        return PBXObjectTable.string(object, "name") ?? PBXObjectTable.string(object, "path").map { ($0 as NSString).lastPathComponent } ?? reference
    }
}
