import Foundation

/// Where a JSON text a person wrote goes wrong, as an editor shows it: `line 3, column 14`.
/// Foundation's decoder says only "The given data was not valid JSON."; its parser knows the
/// character, which is turned into a line and a column here.
public enum JSONSyntax {
    /// The first syntax problem in `data`, with its line and column (both from 1), or nil when
    /// `data` is valid JSON (or the parser does not say where it stopped).
    /// - Returns: `line 2, column 9: Invalid value` or `the text is empty`.
    public static func problem(in data: Data) -> String? {
        if data.allSatisfy({ [0x20, 0x09, 0x0A, 0x0D].contains($0) }) { return "the text is empty" }
        do {
            _ = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            return nil
        } catch {
            let description = (error as NSError).userInfo[NSDebugDescriptionErrorKey] as? String ?? "\(error)"
            guard let range = description.range(of: "character "),
                  let offset = Int(description[range.upperBound...].prefix(while: \.isNumber)) else { return description }
            let (line, column) = position(ofByte: offset, in: data)
            var sentence = description[..<range.lowerBound].trimmingCharacters(in: .whitespaces)
            for ending in [" around", " at"] where sentence.hasSuffix(ending) { sentence.removeLast(ending.count) }
            return "line \(line), column \(column): \(sentence)"
        }
    }

    /// The line and column (from 1, in characters) of the byte at `offset`.
    static func position(ofByte offset: Int, in data: Data) -> (line: Int, column: Int) {
        let before = data.prefix(max(0, offset))
        let line = before.count { $0 == 0x0A } + 1
        let lineStart = before.lastIndex(of: 0x0A).map { $0 + 1 } ?? before.startIndex
        let column = String(decoding: before[lineStart...], as: UTF8.self).count + 1
        return (line, column)
    }

    /// Reads a file a person named, device files and pipes included (`/dev/stdin`, `/dev/null`,
    /// `<(...)`): Foundation's `Data(contentsOf:)` refuses those as a permission problem.
    public static func readFile(_ url: URL) throws -> Data {
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        return try handle.readToEnd() ?? Data()
    }
}
