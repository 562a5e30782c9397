import Foundation
import WalletWire

/// Items from the host as iOS hands them back through `CFTypeRef`: `NSData` for the secret
/// alone, an `NSDictionary` keyed by the `kSec*` constants for attributes, an `NSArray` of
/// either for more than one item. (`item as? Data` and `item as? [String: Any]` read them.)
enum KeychainResultObject {
    /// The object for one item.
    static func item(_ item: KeychainItemValue, returning: KeychainReturn) -> CFTypeRef? {
        guard returning.attributes else { return item.data.map { NSData(data: $0) } }
        var dictionary: [String: Any] = [kSecClass as String: kSecClassGenericPassword as String]
        if let attributes = item.attributes {
            let values: [(CFString, Any?)] = [
                (kSecAttrService, attributes.service), (kSecAttrAccount, attributes.account),
                (kSecAttrAccessGroup, attributes.accessGroup), (kSecAttrLabel, attributes.label),
                (kSecAttrGeneric, attributes.generic), (kSecAttrAccessible, attributes.accessible),
            ]
            for case let (key, value?) in values { dictionary[key as String] = value }
            dictionary[kSecAttrSynchronizable as String] = false
        }
        if returning.data, let data = item.data { dictionary[kSecValueData as String] = data }
        return dictionary as NSDictionary
    }

    /// The object for a search's answer: one item, or an array for a limit above one.
    static func make(_ items: [KeychainItemValue], returning: KeychainReturn, limit: Int?) -> CFTypeRef? {
        guard let limit, limit > 1 else { return items.first.flatMap { item($0, returning: returning) } }
        return items.prefix(limit).compactMap { item($0, returning: returning) } as NSArray
    }
}
