import Foundation

/// A `.xcconfig` file's settings: `NAME = value` lines, `//` comments, `#include "other.xcconfig"`
/// (relative to the including file; `#include?` when it may be missing).
enum XcconfigFile {
    /// The settings of the file at `url`, its includes first (a later line wins); an include
    /// outside `boundary` (default: the directory of `url`) is not read, with a line in `refused`.
    /// - Throws: ``ImportError`` naming a file that cannot be read, a missing include with the file including it, or an include cycle.
    static func settings(at url: URL, boundary: ProjectBoundary? = nil, refused: inout [String]) throws -> [String: String] {
        try settings(at: url, boundary: boundary ?? ProjectBoundary(projectDirectory: url.deletingLastPathComponent()),
                     refused: &refused, including: [])
    }

    /// ``settings(at:boundary:refused:)`` without the lines.
    static func settings(at url: URL, boundary: ProjectBoundary? = nil) throws -> [String: String] {
        var refused: [String] = []
        return try settings(at: url, boundary: boundary, refused: &refused)
    }

    private static func settings(at url: URL, boundary: ProjectBoundary, refused: inout [String], including: [URL]) throws -> [String: String] {
        guard !including.contains(url), including.count < 16 else {
            throw ImportError("\(url.path): #include cycle through \(including.map(\.lastPathComponent).joined(separator: ", "))")
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            throw ImportError("\(url.path): the base configuration file cannot be read")
        }
        var settings: [String: String] = [:]
        for rawLine in String(decoding: data, as: UTF8.self).split(whereSeparator: \.isNewline) {
            var line = String(rawLine)
            if let comment = line.range(of: "//") { line = String(line[..<comment.lowerBound]) }
            line = line.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("#include") {
                let optional = line.hasPrefix("#include?")
                guard let first = line.firstIndex(of: "\""), let last = line.lastIndex(of: "\""), first < last else { continue }
                let path = String(line[line.index(after: first)..<last])
                let included = path.hasPrefix("/") ? URL(fileURLWithPath: path)
                    : url.deletingLastPathComponent().appendingPathComponent(path).standardizedFileURL
                if let refusal = boundary.refusal(of: included, what: "\(url.path): #include") {
                    refused.append(refusal)
                    continue
                }
                if !FileManager.default.fileExists(atPath: included.path) {
                    if optional { continue }
                    throw ImportError("\(url.path): #include \"\(path)\": no such file (looked at \(included.path); "
                        + "#include? may name a missing file)")
                }
                settings.merge(try Self.settings(at: included, boundary: boundary, refused: &refused, including: including + [url])) { _, new in new }
            } else if let equals = line.firstIndex(of: "=") {
                let name = line[..<equals].trimmingCharacters(in: .whitespaces)
                guard !name.isEmpty else { continue }
                settings[name] = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces).trimmingCharacters(in: [";"])
            }
        }
        return settings
    }
}
