import Foundation

/// Runs `swift build` on the generated package, its output going to the host's stderr.
public struct PackageBuilder {
    /// The generated package's directory.
    public let directory: URL
    /// `debug` or `release`, from the Xcode configuration's name.
    public let configuration: String

    /// - Parameter xcodeConfiguration: `Debug` builds debug; any other configuration builds release.
    public init(directory: URL, xcodeConfiguration: String) {
        self.directory = directory
        configuration = xcodeConfiguration.lowercased() == "debug" ? "debug" : "release"
    }

    /// What a build made: where the products are, and the products that did not build.
    public struct Built: Sendable {
        public var products: URL
        /// The products whose build failed (their errors went to stderr), in the order asked.
        public var failed: [String]
    }

    /// Builds every product; when that fails, builds each of `products` on its own, so that one
    /// target that does not compile does not keep the others from being assembled.
    /// - Parameter products: the package's products, each tried alone after a failed whole build.
    /// - Throws: ``ImportError`` when `swift` cannot be run, or when no product builds.
    public func build(products: [String]) throws -> Built {
        var failed: [String] = []
        do {
            _ = try run(["build", "--package-path", directory.path, "-c", configuration], capture: false)
        } catch let whole as ImportError {
            guard products.count > 1 else { throw whole }
            failed = products.filter { product in
                (try? run(["build", "--package-path", directory.path, "-c", configuration, "--product", product], capture: false)) == nil
            }
            guard failed.count < products.count else { throw whole }
        }
        return Built(products: try binPath(), failed: failed)
    }

    private func binPath() throws -> URL {
        let output = try run(["build", "--package-path", directory.path, "-c", configuration, "--show-bin-path"], capture: true)
        guard let path = output.split(whereSeparator: \.isNewline).last.map(String.init), path.hasPrefix("/") else {
            throw ImportError("swift build --show-bin-path printed no directory: \(output)")
        }
        return URL(fileURLWithPath: path)
    }

    private func run(_ arguments: [String], capture: Bool) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["swift"] + arguments
        let pipe = Pipe()
        process.standardOutput = capture ? pipe : FileHandle.standardError
        process.standardError = FileHandle.standardError
        process.standardInput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            throw ImportError("cannot run swift (\(error)); is the Swift toolchain on PATH?")
        }
        let data = capture ? pipe.fileHandleForReading.readDataToEndOfFile() : Data()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw ImportError("swift \(arguments.joined(separator: " ")) failed with status \(process.terminationStatus) (its output is above)")
        }
        return String(decoding: data, as: UTF8.self)
    }
}
