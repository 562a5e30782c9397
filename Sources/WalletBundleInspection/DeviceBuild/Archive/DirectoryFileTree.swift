import Foundation

/// The files of an `.xcarchive` or a built `.app`, read from the file system.
struct DirectoryFileTree: BuildFileTree {
    /// The directory the relative paths start from.
    let root: URL

    func displayPath(_ path: String) -> String {
        path.isEmpty ? root.path : root.appendingPathComponent(path).path
    }

    func childNames(of directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: displayPath(directory))) ?? []).sorted()
    }

    func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: displayPath(path), isDirectory: &isDirectory) && isDirectory.boolValue
    }

    func isFile(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: displayPath(path), isDirectory: &isDirectory) && !isDirectory.boolValue
    }

    func read(_ path: String, limit: Int) throws(BuildFileError) -> Data {
        let url = URL(fileURLWithPath: displayPath(path))
        guard isFile(path) else { throw isDirectory(path) ? .unreadable("is a directory, not a file") : .missing }
        do {
            let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
            // A FIFO or a device would block or never end.
            guard attributes[.type] as? FileAttributeType == .typeRegular else { throw BuildFileError.unreadable("is not a regular file") }
            if let size = (attributes[.size] as? NSNumber)?.intValue, size > limit {
                throw BuildFileError.tooLarge(byteCount: size, limit: limit)
            }
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            // The file may grow between the size check and the read: read at most one byte over.
            let data = try handle.read(upToCount: limit + 1) ?? Data()
            guard data.count <= limit else { throw BuildFileError.tooLarge(byteCount: data.count, limit: limit) }
            return data
        } catch let error as BuildFileError {
            throw error
        } catch {
            throw .unreadable("cannot be read (\(error.localizedDescription))")
        }
    }
}
