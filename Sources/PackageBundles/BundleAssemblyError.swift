/// Why a bundle could not be built or assembled: a sentence naming the file, product or target.
public struct BundleAssemblyError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
