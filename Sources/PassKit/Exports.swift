// On iOS, `import PassKit` brings Foundation (with URLSession and, through it, Security's
// keychain API) and UIKit's types (UIImage, CGImage, CIImage); handler files written for it
// import nothing else. Off Apple platforms URLSession lives in FoundationNetworking.
@_exported import Foundation
#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif
@_exported import Security
@_exported import UIKit
