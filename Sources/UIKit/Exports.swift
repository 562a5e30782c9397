// On iOS, `import UIKit` brings Foundation, Core Graphics, Core Image and, through Foundation,
// Security's keychain API (`kSecClass` without `import Security`). URLSession's module,
// FoundationNetworking, is not re-exported: see Sources/PassKit/Exports.swift.
@_exported import CoreGraphics
@_exported import CoreImage
@_exported import Foundation
@_exported import Security
