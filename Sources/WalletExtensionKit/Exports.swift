// `import WalletExtensionKit` brings every compatibility module, so that a file importing it
// sees what the same file sees on iOS with `import PassKit` and `import UIKit`.
@_exported import CoreGraphics
@_exported import CoreImage
@_exported import Foundation
@_exported import ImageIO
@_exported import LocalAuthentication
@_exported import OSLog
@_exported import PassKit
@_exported import Security
@_exported import UIKit
@_exported import WatchConnectivity
@_exported import os
