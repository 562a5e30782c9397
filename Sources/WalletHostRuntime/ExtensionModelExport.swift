// The model types (extension points, descriptors, App Group identifiers, numbers for people)
// live in ExtensionModel, beneath the runtime and bundle inspection; a file that imports the
// runtime sees them as before (as swift-nio's NIO re-exports NIOCore).
@_exported import ExtensionModel
