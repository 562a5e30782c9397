import Foundation
import ExtensionModel

/// The files of a shipped build, wherever they are stored: a zip archive read in memory
/// (`.ipa`) or a directory (`.xcarchive`, a built `.app`).
///
/// Paths inside a tree are relative and `/`-separated (`Payload/MyIssuer.app/Info.plist`).
/// Nothing is ever unpacked to disk: a file is read, bounded, when a check needs it.
protocol BuildFileTree {
    /// What findings name for a path inside the tree (`/ci/MyIssuer.ipa/Payload/MyIssuer.app/Info.plist`).
    func displayPath(_ path: String) -> String
    /// The names of the entries directly inside a directory of the tree, sorted; empty when
    /// there is no such directory. `""` is the top of the tree.
    func childNames(of directory: String) -> [String]
    /// Whether the path is a directory of the tree.
    func isDirectory(_ path: String) -> Bool
    /// Whether the path is a file of the tree.
    func isFile(_ path: String) -> Bool
    /// The whole file, refused when it is larger than `limit` bytes.
    func read(_ path: String, limit: Int) throws(BuildFileError) -> Data
}

/// `directory/name` inside a build's file tree, or `name` at the top of the tree.
func treePath(_ directory: String, _ name: String) -> String {
    directory.isEmpty ? name : "\(directory)/\(name)"
}

/// Why a file of a build could not be read; its description completes "PATH ..." as a sentence.
enum BuildFileError: Error, Equatable, CustomStringConvertible {
    /// No file at that path.
    case missing
    /// The file (or what it inflates to) is over the reader's limit; it was not read.
    case tooLarge(byteCount: Int, limit: Int)
    /// The bytes could not be had, with the reason as a sentence fragment.
    case unreadable(String)

    var description: String {
        switch self {
        case .missing:
            "does not exist"
        case .tooLarge(let byteCount, let limit):
            "is \(byteCount) bytes (\(HumanReadable.megabytes(byteCount))), over the \(HumanReadable.megabytes(limit)) limit for this kind of file; it was not read"
        case .unreadable(let reason):
            reason
        }
    }
}
