import Foundation

/// The JSON document a command asked for `--json` prints on stdout when it ends in an error, so
/// that a script reading stdout always gets one document: `{"error": {"kind", "message", "exitStatus"}}`.
enum CommandErrorDocument {
    private struct Document: Encodable {
        struct Failure: Encodable {
            let kind: String
            let message: String
            let exitStatus: Int32
        }

        let error: Failure
    }

    /// The document for an error.
    /// - Parameters:
    ///   - message: The sentence printed on stderr too.
    ///   - kind: `usage` (exit 2) or `failure` (exit 1).
    ///   - exitStatus: The status `wallet-host` exits with.
    static func render(_ message: String, kind: String, exitStatus: Int32) -> String {
        (try? JSONOutput.encode(Document(error: .init(kind: kind, message: message, exitStatus: exitStatus)))) ?? "{}"
    }
}
