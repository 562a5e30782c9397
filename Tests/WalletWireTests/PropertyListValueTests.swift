import Foundation
import Testing
import WalletWire

/// The one property list value type the host and the SDK share, through the FoundationEssentials coders.
struct PropertyListValueTests {
    static let sample: [String: PropertyListValue] = [
        "string": .string("hello"), "integer": .integer(42), "real": .real(2.5), "bool": .bool(true),
        "date": .date(Date(timeIntervalSince1970: 1_700_000_000)), "data": .data(Data([0, 1, 2])),
        "array": .array([.integer(1), .bool(false)]), "dictionary": .dictionary(["nested": .string("yes")]),
    ]

    @Test("every kind of value survives PropertyListEncoder and PropertyListDecoder, XML and binary",
          arguments: [PropertyListSerialization.PropertyListFormat.xml, .binary])
    func roundTrip(format: PropertyListSerialization.PropertyListFormat) throws {
        let encoder = PropertyListEncoder()
        encoder.outputFormat = format
        let decoded = try PropertyListDecoder().decode([String: PropertyListValue].self, from: try encoder.encode(Self.sample))
        #expect(decoded == Self.sample)
    }

    @Test("a Boolean stays a Boolean and an integer stays an integer")
    func booleanIsNotAnInteger() throws {
        let decoded = try PropertyListDecoder().decode([String: PropertyListValue].self,
                                                       from: try PropertyListEncoder().encode(["one": .integer(1), "yes": PropertyListValue.bool(true)]))
        #expect(decoded["one"] == .integer(1))
        #expect(decoded["yes"] == .bool(true))
    }

    @Test("accessors and type names for messages")
    func accessors() {
        #expect(PropertyListValue.string("a").stringValue == "a")
        #expect(PropertyListValue.integer(1).stringValue == nil)
        #expect(PropertyListValue.bool(false).boolValue == false)
        #expect(PropertyListValue.array([]).arrayValue == [])
        #expect(PropertyListValue.dictionary([:]).dictionaryValue == [:])
        #expect(PropertyListValue.real(1).typeName == "a real number")
        #expect(PropertyListValue.dictionary([:]).typeName == "a dictionary")
    }
}
