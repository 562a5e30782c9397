/// Why a project cannot be imported: a sentence naming the file, key or value at fault.
public struct ImportError: Error, CustomStringConvertible, Sendable {
    public let description: String

    public init(_ description: String) {
        self.description = description
    }
}
