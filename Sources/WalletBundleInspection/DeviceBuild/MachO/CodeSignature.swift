import Foundation

/// The embedded code signature of one Mach-O slice: the SuperBlob `LC_CODE_SIGNATURE` points at.
///
/// What a device enforces are the entitlements signed here, not the `.entitlements` file in the
/// Xcode project: the XML entitlements blob (`0xfade7171`) and, since iOS 15, its DER twin
/// (`0xfade7172`). Every number in a signature is big-endian.
struct CodeSignature: Equatable {
    /// The embedded signature's SuperBlob.
    static let superBlobMagic: UInt32 = 0xfade_0cc0
    /// The XML property list entitlements blob.
    static let entitlementsMagic: UInt32 = 0xfade_7171
    /// The DER entitlements blob.
    static let derEntitlementsMagic: UInt32 = 0xfade_7172
    /// The CodeDirectory blob, which every real signature has.
    static let codeDirectoryMagic: UInt32 = 0xfade_0c02

    /// The XML entitlements property list, when the signature has one.
    var entitlementsPropertyList: Data?
    /// Whether the signature holds DER entitlements too.
    var hasDEREntitlements: Bool
    /// Whether it holds a CodeDirectory.
    var hasCodeDirectory: Bool

    /// Parses a SuperBlob and the blobs it lists.
    /// - Throws: ``MachOFormatError`` naming the first field that does not fit.
    init(superBlob data: Data) throws(MachOFormatError) {
        guard let magic = data.bigEndianUInt32(at: 0) else { throw MachOFormatError("has a code signature too short for its header") }
        guard magic == Self.superBlobMagic else {
            throw MachOFormatError("has a code signature whose magic is 0x\(String(magic, radix: 16)), not the embedded signature's 0xfade0cc0")
        }
        guard let length = data.bigEndianUInt32(at: 4).map(Int.init), let count = data.bigEndianUInt32(at: 8).map(Int.init) else {
            throw MachOFormatError("has a code signature too short for its header")
        }
        guard length <= data.count, length >= 12 else {
            throw MachOFormatError("has a code signature that declares \(length) bytes but has \(data.count)")
        }
        guard count <= (length - 12) / 8 else {
            throw MachOFormatError("has a code signature that lists \(count) blobs, more than its \(length) bytes can hold")
        }
        entitlementsPropertyList = nil
        hasDEREntitlements = false
        hasCodeDirectory = false
        for index in 0..<count {
            guard let offset = data.bigEndianUInt32(at: 12 + 8 * index + 4).map(Int.init),
                  let blobMagic = data.bigEndianUInt32(at: offset),
                  let blobLength = data.bigEndianUInt32(at: offset + 4).map(Int.init),
                  blobLength >= 8, offset + blobLength <= length else {
                throw MachOFormatError("has a code signature whose blob \(index + 1) of \(count) lies outside the signature")
            }
            switch blobMagic {
            case Self.entitlementsMagic:
                entitlementsPropertyList = data.bytes(at: offset + 8, count: blobLength - 8)
            case Self.derEntitlementsMagic:
                hasDEREntitlements = true
            case Self.codeDirectoryMagic:
                hasCodeDirectory = true
            default:
                break
            }
        }
    }
}
