import Foundation

/// Headless Chromium (Debian's `chromium`, which .ci/run installs), to check pages in a real browser.
public enum Chromium {
    /// The browser's path, nil when it is not installed.
    public static let path: String? = ["/usr/bin/chromium", "/usr/bin/chromium-browser"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The DOM Chromium built from `file`, serialized: what a browser made of the page.
    /// - Throws: When Chromium is missing or fails.
    public static func dumpDOM(of file: URL) throws -> String {
        guard let path else { throw ChromiumError(description: "chromium is not installed") }
        let outputFile = TemporaryDirectory.uniqueURL(prefix: "chromium-dom")
        let errorFile = TemporaryDirectory.uniqueURL(prefix: "chromium-stderr")
        defer {
            try? FileManager.default.removeItem(at: outputFile)
            try? FileManager.default.removeItem(at: errorFile)
        }
        // Through the shell, its output in files: nothing for this process to drain while it runs.
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", "exec \"$0\" --headless --no-sandbox --disable-gpu --no-first-run --dump-dom \"$1\" >\"$2\" 2>\"$3\"",
                             path, URL(fileURLWithPath: file.path).absoluteString, outputFile.path, errorFile.path]
        process.standardInput = FileHandle.nullDevice
        // The test runner's environment (the toolchain's library path among it) is not the browser's.
        let host = ProcessInfo.processInfo.environment
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": host["HOME"] ?? "/tmp", "LANG": "C.UTF-8"]
        try process.run()
        process.waitUntilExit()
        let data = (try? Data(contentsOf: outputFile)) ?? Data()
        let errors = (try? String(contentsOf: errorFile, encoding: .utf8)) ?? ""
        guard process.terminationStatus == 0, !data.isEmpty else {
            throw ChromiumError(description: "chromium exited with status \(process.terminationStatus): \(errors.suffix(6000))")
        }
        return String(decoding: data, as: UTF8.self)
    }
}

/// Chromium could not render a page.
public struct ChromiumError: Error, CustomStringConvertible {
    public var description: String
}
