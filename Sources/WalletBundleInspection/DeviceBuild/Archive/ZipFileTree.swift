import Foundation

/// The files of an `.ipa`, read through ``ZipArchive`` in memory.
struct ZipFileTree: BuildFileTree {
    /// The archive as a file system path, the start of every displayed path.
    let archivePath: String
    let archive: ZipArchive
    /// Every directory (listed or implied by a file's name) with the names directly inside it.
    private let children: [String: Set<String>]

    init(archivePath: String, archive: ZipArchive) {
        self.archivePath = archivePath
        self.archive = archive
        var children: [String: Set<String>] = ["": []]
        for name in archive.entries.keys {
            var components = name.split(separator: "/").map(String.init)
            var parent = ""
            while !components.isEmpty {
                let component = components.removeFirst()
                children[parent, default: []].insert(component)
                parent = treePath(parent, component)
                if !components.isEmpty || name.hasSuffix("/") {
                    children[parent, default: []].formUnion([])
                }
            }
        }
        self.children = children
    }

    func displayPath(_ path: String) -> String {
        path.isEmpty ? archivePath : "\(archivePath)/\(path)"
    }

    func childNames(of directory: String) -> [String] {
        (children[directory] ?? []).sorted()
    }

    func isDirectory(_ path: String) -> Bool {
        children[path] != nil
    }

    func isFile(_ path: String) -> Bool {
        archive.entries[path].map { !$0.isDirectory } ?? false
    }

    func read(_ path: String, limit: Int) throws(BuildFileError) -> Data {
        guard let entry = archive.entries[path], !entry.isDirectory else { throw .missing }
        return try archive.contents(of: entry, limit: limit)
    }
}
