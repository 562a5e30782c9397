import Foundation
import WalletWire

extension JSONValue {
    /// This value decoded as `type`, as if it had come off the wire.
    /// - Throws: the decoder's error, naming the key.
    public func decoded<Value: Decodable>(as type: Value.Type) throws -> Value {
        try JSONDecoder().decode(type, from: try JSONEncoder().encode(self))
    }

    /// Any encodable value as plain JSON.
    /// - Throws: the encoder's error.
    public init(encoding value: some Encodable) throws {
        self = try JSONDecoder().decode(JSONValue.self, from: try JSONEncoder().encode(value))
    }
}
