import Foundation
import WalletWire

/// Card art in the human transcript of `call … passEntries`: its size, and the file it was written
/// to, in place of the PNG's base64 (85 KB of it for one card of Wallet's size). `--json` keeps
/// the bytes.
extension CallReport {
    /// The result as the transcript shows it: pretty JSON, each entry's `art.png` replaced by a
    /// sentence such as `PNG 1536 x 979, 85.3 KB, written to /state/art/CARD-1.png`.
    /// - Parameter artDirectory: Where to write each entry's art (`<identifier>.png`); nil writes none.
    static func shown(_ value: any Encodable & Sendable, artDirectory: URL?) -> JSONValue? {
        guard var shown = try? JSONValue(encoding: value), case .object(var members) = shown,
              case .array(var entries)? = members["entries"],
              let result = try? shown.decoded(as: PassEntriesResult.self) else { return nil }
        if let artDirectory { try? FileManager.default.createDirectory(at: artDirectory, withIntermediateDirectories: true) }
        for (index, entry) in result.entries.enumerated() where index < entries.count {
            guard case .object(var fields) = entries[index] else { continue }
            fields["art"] = .object(["png": .string(artSentence(entry, directory: artDirectory))])
            entries[index] = .object(fields)
        }
        members["entries"] = .array(entries)
        shown = .object(members)
        return shown
    }

    /// `PNG 1536 x 979, 85.3 KB, written to PATH` (or `not a PNG, 12 bytes`, and without a file when none was written).
    private static func artSentence(_ entry: WirePassEntry, directory: URL?) -> String {
        let bytes = entry.art.png
        let size = bytes.count < 1024 ? "\(bytes.count) bytes" : String(format: "%.1f KB", Double(bytes.count) / 1024)
        var sentence: String
        if let header = try? PNGImageHeader.read(bytes) {
            sentence = "PNG \(header.width) x \(header.height), \(size)"
        } else {
            sentence = "not a readable PNG, \(size)"
        }
        guard let directory, !bytes.isEmpty else { return sentence + " (call --json has the bytes)" }
        let name = String(entry.identifier.map { $0.isLetter || $0.isNumber || "-_.".contains($0) ? $0 : "_" }).prefix(100)
        let file = directory.appendingPathComponent((name.isEmpty || name.hasPrefix(".") ? "art" + name : String(name)) + ".png")
        guard (try? bytes.write(to: file)) != nil else { return sentence + " (could not be written to \(file.path))" }
        return sentence + ", written to \(file.path)"
    }
}
