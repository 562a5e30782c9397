import Foundation

/// Where the files and groups of a project are on disk: a `<group>`-relative path is resolved
/// through its parent groups, `SOURCE_ROOT` from the project directory, `<absolute>` as written;
/// built products and SDK files have no source path.
struct FileReferencePaths {
    let table: PBXObjectTable
    let sourceRoot: URL
    /// Child identifier -> the group that lists it.
    private let parents: [String: String]
    private let mainGroup: String?

    init(table: PBXObjectTable, sourceRoot: URL, mainGroup: String?) {
        self.table = table
        self.sourceRoot = sourceRoot
        self.mainGroup = mainGroup
        var parents: [String: String] = [:]
        for (identifier, object) in table.objects {
            for child in PBXObjectTable.strings(object, "children") { parents[child] = identifier }
        }
        self.parents = parents
    }

    /// The absolute location of a file reference, group, variant group or synchronized folder;
    /// nil for one outside the sources (a built product, an SDK framework).
    func url(of identifier: String) -> URL? {
        url(of: identifier, depth: 0)
    }

    private func url(of identifier: String, depth: Int) -> URL? {
        guard depth < 64, let object = table.object(identifier) else { return nil }
        let path = PBXObjectTable.string(object, "path")
        let base: URL?
        switch PBXObjectTable.string(object, "sourceTree") ?? "<group>" {
        case "<group>":
            if identifier == mainGroup {
                base = sourceRoot
            } else if let parent = parents[identifier] {
                base = url(of: parent, depth: depth + 1)
            } else {
                base = sourceRoot
            }
        case "SOURCE_ROOT": base = sourceRoot
        case "<absolute>": base = URL(fileURLWithPath: "/")
        default: base = nil
        }
        guard let base else { return nil }
        guard let path, !path.isEmpty else { return base }
        return path.hasPrefix("/") ? URL(fileURLWithPath: path) : base.appendingPathComponent(path).standardizedFileURL
    }
}
