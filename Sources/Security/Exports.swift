// `import Security` brings Core Foundation's types (CFDictionary, CFData, ...: declared in
// CoreGraphics here, as Core Graphics re-exports Core Foundation on iOS) and Foundation.
// URLSession's module, FoundationNetworking, is not re-exported: see Sources/PassKit/Exports.swift.
@_exported import CoreGraphics
@_exported import Foundation
