import Foundation

// Core Foundation's types as Swift sees them on iOS, where `import Security`, `import CoreGraphics`
// and `import ImageIO` bring them.
// There is no toll-free bridging on Linux; each CF type is the Foundation class it bridges to
// there, so that iOS source compiles unchanged: `query as CFDictionary` from a `[String: Any]`,
// `kSecAttrAccount as String`, `"name" as CFString`, `data as CFData`, an
// `NSMutableDictionary` passed where a `CFDictionary` is expected, `var item: CFTypeRef?` (or
// `AnyObject?`) passed as `&item`, then `item as? Data` or `item as? [String: Any]`.

/// Any Core Foundation object: `AnyObject`, as on iOS.
public typealias CFTypeRef = AnyObject
/// A Core Foundation string: `NSString`, which converts to and from `String` with `as`.
public typealias CFString = NSString
/// A Core Foundation dictionary: `NSDictionary`; `[String: Any] as CFDictionary` converts.
public typealias CFDictionary = NSDictionary
/// A Core Foundation mutable dictionary.
public typealias CFMutableDictionary = NSMutableDictionary
/// A Core Foundation array: `NSArray`.
public typealias CFArray = NSArray
/// Core Foundation bytes: `NSData`; `data as CFData` converts.
public typealias CFData = NSData
/// A Core Foundation number: `NSNumber`.
public typealias CFNumber = NSNumber
/// A Core Foundation Boolean: `NSNumber` holding true or false.
public typealias CFBoolean = NSNumber
/// A Core Foundation count or index.
public typealias CFIndex = Int
/// A result code of Apple's C APIs; Security's are the `errSec*` constants.
public typealias OSStatus = Int32

/// Core Foundation's true, as iOS code passes it for `kSecReturnData` (`kCFBooleanTrue!`).
public let kCFBooleanTrue: CFBoolean! = NSNumber(value: true)
/// Core Foundation's false.
public let kCFBooleanFalse: CFBoolean! = NSNumber(value: false)
/// Core Foundation mutable bytes: `NSMutableData`, what `CGImageDestinationCreateWithData` fills.
public typealias CFMutableData = NSMutableData
/// A Core Foundation URL: `NSURL`; `url as CFURL` converts.
public typealias CFURL = NSURL
