import Foundation

/// Wraps a property list in a CMS SignedData envelope the way `embedded.mobileprovision` is
/// wrapped (no signer: the reader does not verify signatures).
public enum CMSEnvelope {
    /// ContentInfo { signedData, [0] SignedData { 1, {}, { data, [0] OCTET STRING }, {} } }.
    /// - Parameter indefiniteLength: Encode the outer layers with BER indefinite lengths, as
    ///   some profiles are.
    public static func wrap(_ content: Data, indefiniteLength: Bool = false) -> Data {
        let signedDataOID = Data([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x02])
        let dataOID = Data([0x06, 0x09, 0x2A, 0x86, 0x48, 0x86, 0xF7, 0x0D, 0x01, 0x07, 0x01])
        let encapsulated = element(0x30, dataOID + element(0xA0, element(0x04, content), indefinite: indefiniteLength), indefinite: indefiniteLength)
        let signedData = element(0x30, element(0x02, Data([1])) + element(0x31, Data()) + encapsulated + element(0x31, Data()), indefinite: indefiniteLength)
        return element(0x30, signedDataOID + element(0xA0, signedData, indefinite: indefiniteLength), indefinite: indefiniteLength)
    }

    /// One DER (or BER indefinite-length) element.
    public static func element(_ tag: UInt8, _ content: Data, indefinite: Bool = false) -> Data {
        if indefinite {
            return Data([tag, 0x80]) + content + Data([0, 0])
        }
        var header = Data([tag])
        if content.count < 0x80 {
            header.append(UInt8(content.count))
        } else {
            var length = content.count
            var bytes: [UInt8] = []
            while length > 0 {
                bytes.insert(UInt8(length & 0xFF), at: 0)
                length >>= 8
            }
            header.append(0x80 | UInt8(bytes.count))
            header.append(contentsOf: bytes)
        }
        return header + content
    }
}
