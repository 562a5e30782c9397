// On iOS, `import PassKit` brings Foundation and UIKit's types (UIImage, CGImage, CIImage);
// handler files written for it import nothing else.
@_exported import Foundation
@_exported import UIKit
