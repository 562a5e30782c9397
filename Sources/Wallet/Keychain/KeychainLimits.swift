import Foundation
import WalletWire

/// How much one team may keep in the simulated keychain (issue 31, break 9). iOS keychain items
/// are small (tokens, passwords, keys); without bounds one issuer could fill the state directory,
/// outside every container quota, and make every write of its keychain slow.
///
/// - 256 items per team;
/// - 64 KiB of value (`kSecValueData`) per item, and 4 KiB of attributes (service, account,
///   label, generic, access group);
/// - 2 MiB per team in all (values and attributes).
///
/// An `add` or `update` past a bound is refused, the items as they were: a value or attributes
/// too large with `errSecParam`, a full team keychain with `errSecDiskFull`, each with a message
/// naming the bound.
public struct KeychainLimits: Sendable, Hashable {
    /// Items one team may keep.
    public var itemsPerTeam: Int
    /// Bytes of one item's value.
    public var valueBytesPerItem: Int
    /// Bytes of one item's attributes together.
    public var attributeBytesPerItem: Int
    /// Bytes of one team's items together (values and attributes).
    public var bytesPerTeam: Int

    /// The bounds the host applies.
    public static let standard = KeychainLimits(itemsPerTeam: 256, valueBytesPerItem: 64 * 1024, attributeBytesPerItem: 4 * 1024,
                                                bytesPerTeam: 2 * 1024 * 1024)

    public init(itemsPerTeam: Int, valueBytesPerItem: Int, attributeBytesPerItem: Int, bytesPerTeam: Int) {
        self.itemsPerTeam = itemsPerTeam
        self.valueBytesPerItem = valueBytesPerItem
        self.attributeBytesPerItem = attributeBytesPerItem
        self.bytesPerTeam = bytesPerTeam
    }

    /// The refusal for an item past a per-item bound, nil when it is within them.
    func refusal(for item: KeychainItemRecord) -> KeychainResult? {
        if item.data.count > valueBytesPerItem {
            return .failure(KeychainStatus.param, "the item's value is \(item.data.count) bytes, more than the \(valueBytesPerItem) bytes (64 KiB) "
                                + "the simulated keychain keeps per item (iOS keychain items are small: keep large data in a file)")
        }
        if item.attributeBytes > attributeBytesPerItem {
            return .failure(KeychainStatus.param, "the item's attributes are \(item.attributeBytes) bytes, more than the "
                                + "\(attributeBytesPerItem) bytes (4 KiB) the simulated keychain keeps per item")
        }
        return nil
    }

    /// The refusal for a team's items past a per-team bound, nil when they are within them.
    /// - Parameter countingItems: whether the number of items counts (an add), or only their bytes (an update).
    func refusal(forTeam team: String, items: [KeychainItemRecord], countingItems: Bool = true) -> KeychainResult? {
        if countingItems, items.count > itemsPerTeam {
            return .failure(KeychainStatus.diskFull, "team \"\(team)\" already keeps \(items.count - 1) keychain items, the most the simulated "
                                + "keychain keeps per team is \(itemsPerTeam): delete some first")
        }
        let total = items.reduce(0) { $0 + $1.storedBytes }
        if total > bytesPerTeam {
            return .failure(KeychainStatus.diskFull, "team \"\(team)\"'s keychain items would take \(total) bytes, more than the "
                                + "\(bytesPerTeam) bytes (2 MiB) the simulated keychain keeps per team: delete some first")
        }
        return nil
    }
}

extension KeychainItemRecord {
    /// Bytes the item counts for against its team's bound: its value and its attributes.
    var storedBytes: Int { data.count + attributeBytes }

    /// Bytes of the item's attributes: service, account, label, generic and access group.
    var attributeBytes: Int {
        service.utf8.count + account.utf8.count + (label?.utf8.count ?? 0) + (generic?.count ?? 0) + accessGroup.utf8.count
    }
}
