// On iOS, `import UIKit` brings Foundation with URLSession, Core Graphics, Core Image and,
// through Foundation, Security's keychain API (`kSecClass` without `import Security`). Off Apple
// platforms URLSession lives in FoundationNetworking.
@_exported import CoreGraphics
@_exported import CoreImage
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import Security
