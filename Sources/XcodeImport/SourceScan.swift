import Foundation

/// What the importer needs to know of a Swift file without compiling it.
enum SourceScan {
    /// Whether the file has an `import MODULE` line (`@testable import`, `import struct MODULE.X` included).
    static func imports(_ module: String, in file: URL) -> Bool {
        lines(of: file).contains { line in
            let words = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            guard let importIndex = words.firstIndex(of: "import"), importIndex + 1 < words.count,
                  words[..<importIndex].allSatisfy({ $0.hasPrefix("@") }) else { return false }
            let imported = words.count > importIndex + 2 && ["struct", "class", "enum", "func", "protocol", "typealias", "var", "let"]
                .contains(words[importIndex + 1]) ? words[importIndex + 2] : words[importIndex + 1]
            return imported.split(separator: ".").first.map(String.init) == module
        }
    }

    /// Whether the file declares the program's entry point with `@main`.
    static func declaresMain(_ file: URL) -> Bool {
        lines(of: file).contains { $0.hasPrefix("@main") }
    }

    private static func lines(of file: URL) -> [Substring] {
        let text = FileManager.default.contents(atPath: file.path).map { String(decoding: $0, as: UTF8.self) } ?? ""
        return text.split(whereSeparator: \.isNewline).map { $0.drop { $0 == " " || $0 == "\t" } }
    }
}
