import Foundation
import WalletWire

/// Reads a property list file (XML or binary) whose top level must be a dictionary.
enum PropertyListFile {
    /// What reading a property list file gave.
    enum Outcome {
        case dictionary([String: PropertyListValue])
        case missing
        /// The file exists but could not be read; the reason is a sentence fragment.
        case unreadable(String)
        /// The bytes are not a property list; the reason is the parser's own words.
        case malformed(String)
        /// A valid property list whose top level is not a dictionary; the value is its type name.
        case notDictionary(String)
    }

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
            data = try Data(contentsOf: url)
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
        return .dictionary(dictionary)
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
    /// The finding for every outcome except a dictionary, for a file that must exist.
    /// - Parameter missingProblem: What to say when the file does not exist.
    func finding(at url: URL, missingProblem: String) -> ValidationFinding? {
        let problem: String
        switch self {
        case .dictionary: return nil
        case .missing: problem = missingProblem
        case .unreadable(let reason), .malformed(let reason): problem = reason
        case .notDictionary(let typeName): problem = "the top level is \(typeName), not a dictionary"
        }
        return ValidationFinding(.error, path: url.path, key: ValidationFinding.Key.file, problem: problem)
    }
}
