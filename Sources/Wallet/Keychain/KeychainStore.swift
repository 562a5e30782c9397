import Foundation
import WalletWire

/// The simulated keychain's rules over a list of items, apart from the file that keeps them:
/// `SecItemAdd`, `SecItemCopyMatching`, `SecItemUpdate` and `SecItemDelete` for generic
/// passwords, each seen through one bundle's ``KeychainAccess``: the items of other teams are
/// neither seen nor counted as duplicates.
///
/// Every operation answers with a ``KeychainResult`` carrying Security's `OSStatus`; a refused
/// operation leaves the items as they were.
public struct KeychainStore: Sendable, Hashable {
    public private(set) var items: [KeychainItemRecord]
    /// What one team may keep; an add or update past it is refused.
    public var limits: KeychainLimits

    public init(items: [KeychainItemRecord] = [], limits: KeychainLimits = .standard) {
        self.items = items
        self.limits = limits
    }

    /// `SecItemAdd`: a new item in the named group, else in the caller's default group.
    public mutating func add(_ params: KeychainAddParams, access: KeychainAccess, now: Date = Date()) -> KeychainResult {
        if let refusal = Self.classRefusal(params.itemClass) ?? access.refusal(naming: params.attributes.accessGroup) {
            return refusal
        }
        guard let group = params.attributes.accessGroup ?? access.defaultGroup else {
            return .failure(KeychainStatus.missingEntitlement, "this bundle has no keychain access group to add the item to")
        }
        let attributes = params.attributes
        let item = KeychainItemRecord(team: access.team, accessGroup: group, service: attributes.service ?? "", account: attributes.account ?? "",
                                      label: attributes.label, generic: attributes.generic,
                                      accessible: attributes.accessible ?? KeychainItemRecord.defaultAccessible,
                                      data: params.data ?? Data(), createdAt: now)
        if items.contains(where: { access.owns($0) && $0.primaryKey == item.primaryKey }) {
            return .failure(KeychainStatus.duplicateItem)
        }
        if let refusal = limits.refusal(for: item) ?? limits.refusal(forTeam: access.team, items: items.filter(access.owns) + [item]) {
            return refusal
        }
        items.append(item)
        let returned = params.returning == .nothing ? [] : [item.value(params.returning)]
        return .success(returned)
    }

    /// `SecItemCopyMatching`: the first match, or every match, of the groups the caller sees.
    public func copyMatching(_ params: KeychainCopyMatchingParams, access: KeychainAccess) -> KeychainResult {
        if let refusal = Self.classRefusal(params.itemClass) ?? access.refusal(naming: params.query.accessGroup) {
            return refusal
        }
        var found = visible(matching: params.query, access: access).map { items[$0] }
        guard !found.isEmpty else { return .failure(KeychainStatus.itemNotFound) }
        if params.limit == .one { found = [found[0]] }
        return .success(params.returning == .nothing ? [] : found.map { $0.value(params.returning) })
    }

    /// `SecItemUpdate`: every match the caller sees gets the changes, or none does (a change
    /// that would make two items share a primary key is refused whole).
    public mutating func update(_ params: KeychainUpdateParams, access: KeychainAccess, now: Date = Date()) -> KeychainResult {
        if let refusal = Self.classRefusal(params.itemClass)
            ?? access.refusal(naming: params.query.accessGroup)
            ?? access.refusal(naming: params.changes.accessGroup) {
            return refusal
        }
        let matching = visible(matching: params.query, access: access)
        guard !matching.isEmpty else { return .failure(KeychainStatus.itemNotFound) }
        var changed = items
        for index in matching {
            changed[index].apply(params.changes)
            changed[index].team = access.team
            if let data = params.data { changed[index].data = data }
            changed[index].modifiedAt = now
        }
        var keys = Set<[String]>()
        for item in changed where access.owns(item) && !keys.insert(item.primaryKey).inserted {
            return .failure(KeychainStatus.duplicateItem,
                            "the change would give two items service \"\(item.service)\" and account \"\(item.account)\" in the access group \"\(item.accessGroup)\"")
        }
        for index in matching {
            if let refusal = limits.refusal(for: changed[index]) { return refusal }
        }
        // Only a change that makes the team's items larger can take them past the per-team bound.
        let before = items.filter(access.owns), after = changed.filter(access.owns)
        if after.reduce(0, { $0 + $1.storedBytes }) > before.reduce(0, { $0 + $1.storedBytes }),
           let refusal = limits.refusal(forTeam: access.team, items: after, countingItems: false) {
            return refusal
        }
        items = changed
        return .success()
    }

    /// `SecItemDelete`: every match the caller sees goes.
    public mutating func delete(_ params: KeychainDeleteParams, access: KeychainAccess) -> KeychainResult {
        if let refusal = Self.classRefusal(params.itemClass) ?? access.refusal(naming: params.query.accessGroup) {
            return refusal
        }
        let matching = Set(visible(matching: params.query, access: access))
        guard !matching.isEmpty else { return .failure(KeychainStatus.itemNotFound) }
        items = items.enumerated().filter { !matching.contains($0.offset) }.map(\.element)
        return .success()
    }

    /// Indices of the items the caller sees that match, in the order they were added.
    private func visible(matching query: KeychainAttributes, access: KeychainAccess) -> [Int] {
        items.indices.filter { access.sees(items[$0]) && items[$0].matches(query) }
    }

    /// Apple's item classes (`kSecClass` values) that the simulated keychain does not keep.
    static let otherClasses: [String: String] = [
        "inet": "kSecClassInternetPassword", "cert": "kSecClassCertificate", "keys": "kSecClassKey", "idnt": "kSecClassIdentity",
    ]

    /// The answer for a class other than generic passwords, nil for a generic password.
    static func classRefusal(_ itemClass: String) -> KeychainResult? {
        guard itemClass != KeychainStatus.genericPasswordClass else { return nil }
        if let name = otherClasses[itemClass] {
            return .failure(KeychainStatus.unimplemented,
                            "the simulated keychain keeps generic passwords (kSecClassGenericPassword) only, not \(name) items")
        }
        return .failure(KeychainStatus.param, "kSecClass \"\(itemClass)\" is not a keychain item class")
    }
}
