// On iOS, `import PassKit` brings Foundation and, through it, Security's keychain API, and
// UIKit's types (UIImage, CGImage, CIImage); handler files written for it import nothing else.
//
// URLSession: off Apple platforms it lives in FoundationNetworking, which is not re-exported
// here on purpose: loading it (libcurl and about 40 libraries it needs) costs every extension
// about 8 ms of cold start, which would put the minimal extension at 2.5x a bare Swift process
// (the target is 1.5x). An extension target that networks adds
// `-Xfrontend -import-module -Xfrontend FoundationNetworking` (docs/SDK.md), so that every file
// sees URLSession, also the ones that import only Foundation.
@_exported import Foundation
@_exported import Security
@_exported import UIKit
// The Sendable conformances Foundation states unavailable on Linux (UserDefaults), which iOS code relies on.
@_exported import FoundationSendableConformances
