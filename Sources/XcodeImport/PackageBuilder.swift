import Foundation
import PackageBundles

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
        let swift = SwiftBuild(packageDirectory: directory, configuration: configuration)
        do {
            var failed: [String] = []
            if try !swift.build().succeeded {
                let whole = ImportError("swift build --package-path \(directory.path) -c \(configuration) failed (its output is above)")
                guard products.count > 1 else { throw whole }
                failed = try products.filter { try !swift.build(product: $0).succeeded }
                guard failed.count < products.count else { throw whole }
            }
            return Built(products: try swift.binPath(), failed: failed)
        } catch let error as BundleAssemblyError {
            throw ImportError(error.description)
        }
    }
}
