import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Turns a spawn failure into the sentence a person needs.
enum LaunchFailure {
    /// The error's description, except that `execve` failing with ENOENT on a file that exists
    /// means its `#!` interpreter is missing: that names the interpreter, not the script.
    static func explain(_ error: any Error, executablePath: String) -> String {
        guard let spawn = error as? SpawnError, spawn.errno == ENOENT, spawn.stage == .execve,
              FileManager.default.fileExists(atPath: executablePath),
              let interpreter = interpreter(of: executablePath) else { return "\(error)" }
        return "cannot launch \(executablePath): its interpreter \(interpreter) (from the script's #! line) does not exist"
    }

    /// The program named on a script's `#!` line, if it has one.
    static func interpreter(of path: String) -> String? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        guard let head = try? handle.read(upToCount: 256), head.starts(with: Array("#!".utf8)) else { return nil }
        let line = String(decoding: head.dropFirst(2).prefix { $0 != UInt8(ascii: "\n") }, as: UTF8.self)
        return line.split(whereSeparator: { $0 == " " || $0 == "\t" }).first.map(String.init)
    }
}
