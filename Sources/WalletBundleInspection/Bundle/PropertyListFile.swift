import Foundation
import ExtensionModel
import WalletWire

/// Reads a property list file (XML or binary) whose top level must be a dictionary.
enum PropertyListFile {
    /// The largest manifest (Info.plist, .entitlements) the host reads: 1 MiB. Real manifests are
    /// a few kilobytes; parsing is what costs (a 50 MB Info.plist took 8.6 s and 530 MB), so a
    /// bigger file is refused from its size, before a byte of it is read.
    static let byteLimit = 1_048_576

    /// What reading a property list file gave.
    enum Outcome {
        /// The top-level dictionary, and the key paths that a dictionary in the file holds twice
        /// (``PropertyListDuplicateKeys``): the parser kept one of the two values.
        case dictionary([String: PropertyListValue], duplicateKeys: [String])
        case missing
        /// The file exists but could not be read; the reason is a sentence fragment.
        case unreadable(String)
        /// The bytes are not a property list; the reason is the parser's own words.
        case malformed(String)
        /// A valid property list whose top level is not a dictionary; the value is its type name.
        case notDictionary(String)
        /// The file is over ``PropertyListFile/byteLimit``; it was not parsed.
        case tooLarge(byteCount: Int)
    }

    /// Reads and parses the file, refusing one over ``byteLimit`` without reading it.
    static func read(_ url: URL) -> Outcome {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) else {
            return .missing
        }
        if isDirectory.boolValue {
            return .unreadable("is a directory, not a file")
        }
        let data: Data
        do {
            // attributesOfItem describes a symbolic link itself; the manifest is what it points to.
            let attributes = try FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)
            // A FIFO or a device would block or never end; a manifest is a regular file.
            guard attributes[.type] as? FileAttributeType == .typeRegular else {
                return .unreadable("is not a regular file")
            }
            if let size = (attributes[.size] as? NSNumber)?.intValue, size > byteLimit {
                return .tooLarge(byteCount: size)
            }
            // The file may grow between the size check and the read: read at most one byte over.
            let handle = try FileHandle(forReadingFrom: url)
            defer { try? handle.close() }
            data = try handle.read(upToCount: byteLimit + 1) ?? Data()
            if data.count > byteLimit {
                let size = (try? FileManager.default.attributesOfItem(atPath: url.resolvingSymlinksInPath().path)[.size]
                    as? NSNumber)?.intValue
                return .tooLarge(byteCount: max(size ?? data.count, data.count))
            }
        } catch {
            return .unreadable("cannot be read (\(error.localizedDescription))")
        }
        let parsed: Any
        do {
            parsed = try PropertyListSerialization.propertyList(from: data, options: [], format: nil)
        } catch {
            return .malformed(parseProblem(in: error, byteCount: data.count))
        }
        guard let value = PropertyListValue(foundationValue: parsed) else {
            return .malformed("holds a value that is not a property list type")
        }
        guard case .dictionary(let dictionary) = value else {
            return .notDictionary(value.typeName)
        }
        return .dictionary(dictionary, duplicateKeys: PropertyListDuplicateKeys.find(in: data))
    }

    /// The parser's own explanation ("Value missing for key inside <dict> at line 3"), which names the line.
    private static func parseProblem(in error: any Error, byteCount: Int) -> String {
        if byteCount == 0 {
            return "is empty"
        }
        let debugDescription = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String
        return "is not a valid XML or binary property list (\(debugDescription ?? error.localizedDescription))"
    }
}

extension PropertyListFile.Outcome {
    /// An error for each key a dictionary of the file holds twice: which value counts is up to
    /// the reader (Foundation keeps one and says nothing), so the manifest is ambiguous.
    func duplicateKeyFindings(at url: URL) -> [ValidationFinding] {
        guard case .dictionary(_, let duplicateKeys) = self else { return [] }
        return duplicateKeys.map { key in
            ValidationFinding(.error, path: url.path, key: key, problem: PropertyListDuplicateKeys.problem)
        }
    }

    /// The finding for every outcome except a dictionary, for a file that must exist.
    /// - Parameter missingProblem: What to say when the file does not exist.
    func finding(at url: URL, missingProblem: String) -> ValidationFinding? {
        let problem: String
        switch self {
        case .dictionary: return nil
        case .missing: problem = missingProblem
        case .unreadable(let reason), .malformed(let reason): problem = reason
        case .notDictionary(let typeName): problem = "the top level is \(typeName), not a dictionary"
        case .tooLarge(let byteCount):
            problem = "is \(byteCount) bytes (\(HumanReadable.megabytes(byteCount))), over the \(HumanReadable.megabytes(PropertyListFile.byteLimit)) "
                + "limit for a manifest; it was not read (real manifests are a few kilobytes)"
        }
        return ValidationFinding(.error, path: url.path, key: ValidationFinding.Key.file, problem: problem)
    }
}
