import Foundation

/// One element of BER/DER-encoded ASN.1, as much of it as reading a CMS envelope needs:
/// tag, whether it is constructed, and its content. Indefinite lengths (BER, which some
/// provisioning profiles use) are followed to their end-of-contents marker.
struct DERElement {
    /// The identifier octet: class, constructed bit and tag number (numbers up to 30).
    var tag: UInt8
    /// The content octets.
    var content: Data

    var isConstructed: Bool { tag & 0x20 != 0 }

    static let sequenceTag: UInt8 = 0x30
    static let objectIdentifierTag: UInt8 = 0x06
    static let octetStringTag: UInt8 = 0x04
    static let constructedOctetStringTag: UInt8 = 0x24
    /// `[0] EXPLICIT`, how CMS wraps its content.
    static let contextZeroTag: UInt8 = 0xA0

    /// How deep indefinite-length elements may nest before the input is taken for hostile.
    private static let maximumDepth = 32

    /// Reads the element at the start of `data`.
    /// - Returns: The element and how many bytes it took, header included.
    static func read(_ data: Data, depth: Int = 0) throws(DERFormatError) -> (element: DERElement, length: Int) {
        guard depth < maximumDepth else { throw DERFormatError("nests deeper than \(maximumDepth) levels") }
        guard let tag = data.first, data.count >= 2 else { throw DERFormatError("ends inside an element header") }
        guard tag & 0x1F != 0x1F else { throw DERFormatError("uses a multi-byte ASN.1 tag, which no CMS envelope needs") }
        let lengthByte = data[data.startIndex + 1]
        if lengthByte == 0x80 {
            guard tag & 0x20 != 0 else { throw DERFormatError("gives a primitive element an indefinite length") }
            var offset = 2
            var children = Data()
            while true {
                guard let rest = data.bytes(at: offset, count: data.count - offset), rest.count >= 2 else {
                    throw DERFormatError("ends before an indefinite-length element's end-of-contents marker")
                }
                if rest[rest.startIndex] == 0, rest[rest.startIndex + 1] == 0 {
                    return (DERElement(tag: tag, content: children), offset + 2)
                }
                let (_, childLength) = try read(rest, depth: depth + 1)
                children.append(rest.prefix(childLength))
                offset += childLength
            }
        }
        var contentLength = Int(lengthByte)
        var headerLength = 2
        if lengthByte & 0x80 != 0 {
            let byteCount = Int(lengthByte & 0x7F)
            guard byteCount <= 4, let lengthBytes = data.bytes(at: 2, count: byteCount) else {
                throw DERFormatError("has an element length that does not fit")
            }
            contentLength = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            headerLength += byteCount
        }
        guard let content = data.bytes(at: headerLength, count: contentLength) else {
            throw DERFormatError("has an element of \(contentLength) bytes running past the end")
        }
        return (DERElement(tag: tag, content: content), headerLength + contentLength)
    }

    /// The elements inside a constructed element, in order.
    func children() throws(DERFormatError) -> [DERElement] {
        var elements: [DERElement] = []
        var rest = content
        while !rest.isEmpty {
            let (element, length) = try Self.read(rest)
            elements.append(element)
            rest = rest.dropFirst(length)
        }
        return elements
    }

    /// An OCTET STRING's bytes, the chunks of a constructed (BER) one joined.
    func octets() throws(DERFormatError) -> Data {
        guard tag == Self.constructedOctetStringTag else { return content }
        var joined = Data()
        for chunk in try children() {
            joined.append(try chunk.octets())
        }
        return joined
    }
}

/// Why DER could not be read; the description completes "PATH ...".
struct DERFormatError: Error, Equatable, CustomStringConvertible {
    var description: String

    init(_ description: String) {
        self.description = description
    }
}
