import Foundation
import WalletWire

/// The bridge from `PropertyListSerialization`, which reads XML and binary Info.plists but
/// exists in full Foundation only (so not in WalletWire, which the SDK links).
extension PropertyListValue {
    /// Converts what `PropertyListSerialization` returns, or nil for a type no property list holds.
    init?(foundationValue value: Any) {
        // Checked before NSNumber: on Linux an integer NSNumber also casts to Bool.
        if type(of: value) == Bool.self, let boolean = value as? Bool {
            self = .bool(boolean)
        } else if let string = value as? String {
            self = .string(string)
        } else if let number = value as? NSNumber {
            switch String(cString: number.objCType) {
            case "c", "B": self = .bool(number.boolValue)
            case "d", "f": self = .real(number.doubleValue)
            default: self = .integer(number.intValue)
            }
        } else if let date = value as? Date {
            self = .date(date)
        } else if let data = value as? Data {
            self = .data(data)
        } else if let array = value as? [Any] {
            var elements: [PropertyListValue] = []
            for element in array {
                guard let converted = PropertyListValue(foundationValue: element) else { return nil }
                elements.append(converted)
            }
            self = .array(elements)
        } else if let dictionary = value as? [AnyHashable: Any] {
            var entries: [String: PropertyListValue] = [:]
            for (key, element) in dictionary {
                guard let key = key.base as? String,
                      let converted = PropertyListValue(foundationValue: element) else { return nil }
                entries[key] = converted
            }
            self = .dictionary(entries)
        } else {
            return nil
        }
    }
}
