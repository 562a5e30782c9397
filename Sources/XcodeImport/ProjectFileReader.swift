import Foundation

/// Reads `PROJECT.xcodeproj/project.pbxproj` into an ``XcodeProject``: classic groups and file
/// references with their source trees, Xcode 16 synchronized folders with their exception sets,
/// each target's build phases and build configurations (object versions up to 77).
public enum ProjectFileReader {
    /// The newest `objectVersion` whose layout the reader knows.
    public static let newestObjectVersion = 77

    /// Reads the project at `xcodeproj` (the `.xcodeproj` directory).
    /// - Parameter boundary: What may be read besides the project file (default: the directory
    ///   holding the `.xcodeproj` alone); a file the project names outside it is not read, with a line.
    /// - Throws: ``ImportError`` naming the file or object that cannot be read.
    public static func read(_ xcodeproj: URL, boundary: ProjectBoundary? = nil) throws -> XcodeProject {
        let boundary = boundary ?? ProjectBoundary(projectDirectory: xcodeproj.deletingLastPathComponent())
        let file = xcodeproj.appendingPathComponent("project.pbxproj")
        guard let data = FileManager.default.contents(atPath: file.path) else {
            throw ImportError("\(file.path): no such file (is \(xcodeproj.lastPathComponent) an Xcode project?)")
        }
        let root: [String: Any]
        do {
            guard let dictionary = try PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any] else {
                throw ImportError("\(file.path): not a dictionary at the top level")
            }
            root = dictionary
        } catch let error as ImportError {
            throw error
        } catch {
            throw ImportError("\(file.path): not a property list Foundation can read (\(error))")
        }
        guard let objects = root["objects"] as? [String: [String: Any]] else {
            throw ImportError("\(file.path): no \"objects\" dictionary")
        }
        let table = PBXObjectTable(objects: objects)
        let objectVersion = Int(root["objectVersion"] as? String ?? "") ?? 0
        guard let rootIdentifier = root["rootObject"] as? String, let project = table.object(rootIdentifier),
              table.isa(rootIdentifier) == "PBXProject" else {
            throw ImportError("\(file.path): \"rootObject\" does not name a PBXProject")
        }
        let projectDirectory = xcodeproj.deletingLastPathComponent()
        let projectDirPath = PBXObjectTable.string(project, "projectDirPath") ?? ""
        let sourceRoot = projectDirPath.isEmpty ? projectDirectory : projectDirectory.appendingPathComponent(projectDirPath).standardizedFileURL
        let paths = FileReferencePaths(table: table, sourceRoot: sourceRoot,
                                       mainGroup: PBXObjectTable.string(project, "mainGroup"))
        let (configurations, defaultName, refused) = buildConfigurations(table, list: PBXObjectTable.string(project, "buildConfigurationList"),
                                                                        paths: paths, boundary: boundary)
        let targets = PBXObjectTable.strings(project, "targets").compactMap { identifier in
            TargetReader(table: table, paths: paths, boundary: boundary).target(identifier)
        }
        return XcodeProject(url: xcodeproj, name: xcodeproj.deletingPathExtension().lastPathComponent, sourceRoot: sourceRoot,
                            objectVersion: objectVersion, configurations: configurations, defaultConfigurationName: defaultName,
                            targets: targets, boundary: boundary, unsupported: refused.map { "project: \($0)" })
    }

    /// The configurations of an `XCConfigurationList`, by name, its default configuration's name,
    /// and a line for each base configuration file outside `boundary` (not read: as if it had none).
    static func buildConfigurations(_ table: PBXObjectTable, list: String?, paths: FileReferencePaths, boundary: ProjectBoundary)
        -> ([String: BuildConfiguration], String?, [String]) {
        let listObject = table.object(list)
        var configurations: [String: BuildConfiguration] = [:]
        var refused: [String] = []
        for identifier in PBXObjectTable.strings(listObject, "buildConfigurations") {
            guard let object = table.object(identifier), let name = PBXObjectTable.string(object, "name") else { continue }
            var base = PBXObjectTable.string(object, "baseConfigurationReference").flatMap(paths.url(of:))
            if let file = base, let refusal = boundary.refusal(of: file, what: "configuration \(name): base configuration file") {
                refused.append(refusal)
                base = nil
            }
            configurations[name] = BuildConfiguration(settings: PBXObjectTable.settings(object), baseConfiguration: base)
        }
        return (configurations, PBXObjectTable.string(listObject, "defaultConfigurationName"), refused)
    }
}
