import Foundation

/// `swift build` on a package, run as a child process: what `import`, `bundle` and `serve --watch`
/// build with.
public struct SwiftBuild: Sendable {
    /// The package's directory.
    public let packageDirectory: URL
    /// `debug` or `release`.
    public let configuration: String

    public init(packageDirectory: URL, configuration: String = "debug") {
        self.packageDirectory = packageDirectory
        self.configuration = configuration
    }

    /// Where the compiler's output goes.
    public enum Output: Sendable {
        /// To this process's stderr, as it comes.
        case standardError
        /// Kept and returned (stdout and stderr together), for a caller that prints only the errors.
        case captured
    }

    /// What one build printed and whether it succeeded.
    public struct Result: Sendable {
        public var succeeded: Bool
        /// The output, when it was captured (else empty).
        public var output: String
    }

    /// Builds `product`, or every product when nil.
    /// - Throws: ``BundleAssemblyError`` when `swift` cannot be run; a failed build is a result.
    public func build(product: String? = nil, output: Output = .standardError) throws -> Result {
        let arguments = ["build", "--package-path", packageDirectory.path, "-c", configuration] + (product.map { ["--product", $0] } ?? [])
        return try run(arguments, output: output)
    }

    /// `swift build --show-bin-path`: where the products are.
    /// - Throws: ``BundleAssemblyError`` when swift cannot be run or prints no directory.
    public func binPath() throws -> URL {
        let result = try run(["build", "--package-path", packageDirectory.path, "-c", configuration, "--show-bin-path"], output: .captured,
                             separateErrors: true)
        guard result.succeeded, let path = result.output.split(whereSeparator: \.isNewline).last.map(String.init), path.hasPrefix("/") else {
            throw BundleAssemblyError("swift build --show-bin-path printed no directory: \(result.output)")
        }
        return URL(fileURLWithPath: path)
    }

    /// The lines of a build's output that a person needs: the compiler's errors and warnings with the
    /// lines that show where, and SwiftPM's `error:` lines; the progress lines left out.
    public static func problems(in output: String) -> String {
        output.split(separator: "\n", omittingEmptySubsequences: false)
            .filter { line in !(line.hasPrefix("[") && line.contains("/")) && !line.hasPrefix("Building for ") && !line.hasPrefix("Compiling ")
                && !line.hasPrefix("Write ") && !line.hasPrefix("Emitting ") }
            .joined(separator: "\n").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func run(_ arguments: [String], output: Output, separateErrors: Bool = false) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let pipe = Pipe()
        switch output {
        case .standardError:
            process.standardOutput = FileHandle.standardError
            process.standardError = FileHandle.standardError
        case .captured:
            process.standardOutput = pipe
            process.standardError = separateErrors ? FileHandle.standardError : pipe
        }
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw BundleAssemblyError("cannot run swift (\(error)); is the Swift toolchain on PATH?")
        }
        let data = output == .captured ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        return Result(succeeded: process.terminationStatus == 0 && process.terminationReason == .exit,
                      output: String(decoding: data, as: UTF8.self))
    }
}
