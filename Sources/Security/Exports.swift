// `import Security` brings Core Foundation's types (CFDictionary, CFData, ...: declared in
// CoreGraphics here, as Core Graphics re-exports Core Foundation on iOS) and Foundation with
// URLSession, which lives in FoundationNetworking off Apple platforms.
@_exported import CoreGraphics
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
