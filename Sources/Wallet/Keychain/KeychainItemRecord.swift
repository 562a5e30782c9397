import Foundation
import WalletWire

/// A generic password in the simulated device's keychain, as its team's file (`keychain/<team>.json`) keeps it.
///
/// Its identity is Apple's composite primary key for the class (access group, service and
/// account) within its team: no two items of one team share all three.
public struct KeychainItemRecord: Sendable, Codable, Hashable {
    /// The team that owns the item (``ServiceRequest/team``); nil for an item written before
    /// teams, whose team ``KeychainAccess/owns(_:)`` infers from its group.
    public var team: String?
    /// The access group the item belongs to; only bundles entitled to it see the item.
    public var accessGroup: String
    /// `kSecAttrService`, empty when the item was added without one (as on iOS).
    public var service: String
    /// `kSecAttrAccount`, empty when the item was added without one.
    public var account: String
    public var label: String?
    public var generic: Data?
    /// `kSecAttrAccessible`'s short value; iOS's default is `"ak"` (when unlocked).
    public var accessible: String
    /// The secret, `kSecValueData`.
    public var data: Data
    public var createdAt: Date
    public var modifiedAt: Date

    /// `kSecAttrAccessibleWhenUnlocked`, what iOS gives an item added without `kSecAttrAccessible`.
    public static let defaultAccessible = "ak"

    public init(team: String?, accessGroup: String, service: String, account: String, label: String? = nil, generic: Data? = nil,
                accessible: String = Self.defaultAccessible, data: Data, createdAt: Date = Date(), modifiedAt: Date? = nil) {
        self.team = team
        self.accessGroup = accessGroup
        self.service = service
        self.account = account
        self.label = label
        self.generic = generic
        self.accessible = accessible
        self.data = data
        self.createdAt = createdAt
        self.modifiedAt = modifiedAt ?? createdAt
    }

    /// The composite primary key within a team: two items of one team with equal keys cannot both exist.
    var primaryKey: [String] { [accessGroup, service, account] }

    /// The item's attributes as the wire carries them.
    public var attributes: KeychainAttributes {
        KeychainAttributes(service: service, account: account, accessGroup: accessGroup, label: label, generic: generic,
                           accessible: accessible)
    }

    /// Whether the item has every attribute the query gives.
    public func matches(_ query: KeychainAttributes) -> Bool {
        (query.service.map { $0 == service } ?? true)
            && (query.account.map { $0 == account } ?? true)
            && (query.accessGroup.map { $0 == accessGroup } ?? true)
            && (query.label.map { $0 == label } ?? true)
            && (query.generic.map { $0 == generic } ?? true)
            && (query.accessible.map { $0 == accessible } ?? true)
    }

    /// Sets every attribute `changes` gives; the others stay.
    mutating func apply(_ changes: KeychainAttributes) {
        if let service = changes.service { self.service = service }
        if let account = changes.account { self.account = account }
        if let accessGroup = changes.accessGroup { self.accessGroup = accessGroup }
        if let label = changes.label { self.label = label }
        if let generic = changes.generic { self.generic = generic }
        if let accessible = changes.accessible { self.accessible = accessible }
    }

    /// What an answer carries of the item: its attributes, its data, or both.
    func value(_ returning: KeychainReturn) -> KeychainItemValue {
        KeychainItemValue(attributes: returning.attributes ? attributes : nil, data: returning.data ? data : nil)
    }
}
