import Foundation
import WalletWire

// Security's result codes (SecBase.h) that the simulated keychain answers with, or that iOS
// code commonly compares against.

/// No error.
public let errSecSuccess: OSStatus = KeychainStatus.success
/// No error (MacTypes' name for zero).
public let noErr: OSStatus = 0
/// A function or operation the simulated keychain does not implement.
public let errSecUnimplemented: OSStatus = KeychainStatus.unimplemented
/// An I/O error.
public let errSecIO: OSStatus = -36
/// One or more parameters passed to a function were not valid.
public let errSecParam: OSStatus = KeychainStatus.param
/// Failed to allocate memory.
public let errSecAllocate: OSStatus = -108
/// The user canceled the operation.
public let errSecUserCanceled: OSStatus = -128
/// No keychain is available: the process does not run under wallet-host.
public let errSecNotAvailable: OSStatus = KeychainStatus.notAvailable
/// The user name or passphrase is not correct.
public let errSecAuthFailed: OSStatus = -25293
/// The item already exists.
public let errSecDuplicateItem: OSStatus = KeychainStatus.duplicateItem
/// The item could not be found.
public let errSecItemNotFound: OSStatus = KeychainStatus.itemNotFound
/// User interaction is not allowed.
public let errSecInteractionNotAllowed: OSStatus = -25308
/// Unable to decode the provided data.
public let errSecDecode: OSStatus = KeychainStatus.decode
/// A required entitlement is not present: an access group the bundle is not entitled to.
public let errSecMissingEntitlement: OSStatus = KeychainStatus.missingEntitlement
/// The disk is full: the team's keychain holds as much as the simulated device keeps.
public let errSecDiskFull: OSStatus = KeychainStatus.diskFull

/// Security's sentence for a result code, as iOS words it.
///
/// - Parameters:
///   - status: A result code, for example ``errSecItemNotFound``.
///   - reserved: Pass nil.
/// - Returns: The message; for a code Security does not know, `OSStatus <code>`.
public func SecCopyErrorMessageString(_ status: OSStatus, _ reserved: UnsafeMutableRawPointer?) -> CFString? {
    let message = SecurityErrorMessages.text[status] ?? "OSStatus \(status)"
    return NSString(string: message)
}

enum SecurityErrorMessages {
    static let text: [OSStatus: String] = [
        errSecSuccess: "No error.",
        errSecUnimplemented: "Function or operation not implemented.",
        errSecIO: "I/O error.",
        errSecParam: "One or more parameters passed to a function were not valid.",
        errSecAllocate: "Failed to allocate memory.",
        errSecUserCanceled: "User canceled the operation.",
        errSecNotAvailable: "No keychain is available.",
        errSecAuthFailed: "The user name or passphrase you entered is not correct.",
        errSecDuplicateItem: "The specified item already exists in the keychain.",
        errSecItemNotFound: "The specified item could not be found in the keychain.",
        errSecInteractionNotAllowed: "User interaction is not allowed.",
        errSecDecode: "Unable to decode the provided data.",
        errSecMissingEntitlement: "A required entitlement isn't present.",
        errSecDiskFull: "The disk is full.",
    ]
}
