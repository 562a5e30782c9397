import Foundation
import Wallet
import WalletWire

/// `wallet-host keychain list|add|remove|reset`: the simulated device's keychain, as its
/// owner sees it. `add` stands in for a containing app that stores a token for its extensions
/// (apps run by `app open` have no host connection, so no keychain of their own).
enum KeychainCommand {
    static let spec = CommandSpec(
        "keychain",
        arguments: [.init(name: "list|add|remove|reset", help: """
            List the generic passwords (the default; secrets are never printed, only their size), add \
            one, remove those matching --group, --service and --account, or empty the keychain.
            """)],
        summary: "Show or change the simulated device's keychain (generic passwords).",
        options: [.valued("group", "GROUP", help: """
                      The keychain access group: add puts the item there; list and remove only look there.
                      """),
                  .valued("app", "APP", help: """
                      add: store the item as this containing app would, in its default access group (its first \
                      keychain-access-groups value, else its bundle identifier): a path to an .app, or an app \
                      name or bundle identifier in --apps, with the app's team. Instead of --group.
                      """),
                  .valued("team", "TEAM", help: """
                      add with --group: the team that owns the item; only that team's bundles see it. Default: the \
                      team that owns the App Group GROUP on this device.
                      """),
                  .valued("service", "NAME", help: "kSecAttrService (add: default empty)."),
                  .valued("account", "NAME", help: "kSecAttrAccount (add: default empty)."),
                  .valued("label", "TEXT", help: "add: kSecAttrLabel."),
                  .valued("secret", "TEXT", help: "add: the secret (kSecValueData), stored as UTF-8."),
                  CommonOptions.apps,
                  CommonOptions.state,
                  CommonOptions.json.withHelp("Print the result as JSON.")])

    /// An item as `list` shows it: everything but the secret.
    struct Listing: Encodable {
        var team: String?
        var accessGroup: String
        var service: String
        var account: String
        var label: String?
        var accessible: String
        var secretBytes: Int
        var createdAt: Date
        var modifiedAt: Date

        init(_ item: KeychainItemRecord) {
            team = item.team
            accessGroup = item.accessGroup
            service = item.service
            account = item.account
            label = item.label
            accessible = item.accessible
            secretBytes = item.data.count
            createdAt = item.createdAt
            modifiedAt = item.modifiedAt
        }

        var line: String {
            "\(accessGroup): service \"\(service)\" account \"\(account)\"" + (label.map { " label \"\($0)\"" } ?? "")
                + ", \(secretBytes)-byte secret, modified \(modifiedAt.formatted(.iso8601))"
        }
    }

    static func run(_ arguments: [String]) throws -> Int32 {
        let parsed = try ParsedArguments(arguments, for: spec)
        let device = SimulatedDevice(state: StateDirectory(url: StateCommands.stateURL(parsed)))
        let filter = KeychainAttributes(service: parsed.value("service"), account: parsed.value("account"),
                                        accessGroup: parsed.value("group"))
        switch parsed.positionals.first {
        case "list", nil:
            let listings = try device.keychainItems().filter { $0.matches(filter) }.map(Listing.init)
            if parsed.has("json") {
                printJSON(try JSONOutput.encode(listings))
            } else {
                print(listings.isEmpty ? "no keychain items" : listings.map(\.line).joined(separator: "\n"))
            }
        case "add":
            return try add(parsed, filter: filter, device: device)
        case "remove":
            guard !filter.isEmpty else { throw UsageError("keychain remove needs --group, --service or --account (reset empties it)") }
            let removed = try device.removeKeychainItems(matching: filter)
            print(parsed.has("json") ? "{\"removed\":\(removed)}" : "removed \(removed) item(s)")
            return removed > 0 ? 0 : 1
        case "reset":
            try device.removeKeychainItems(matching: KeychainAttributes())
            print(parsed.has("json") ? "{\"reset\":true}" : "keychain emptied")
        case let other?:
            throw UsageError("keychain takes list, add, remove or reset, not \"\(other)\"")
        }
        return 0
    }

    /// The access of `keychain add --group`: the given team, else the owner of the App Group.
    private static func groupAccess(_ group: String, team: String?, device: SimulatedDevice) throws -> KeychainAccess {
        guard let team = try team ?? device.state.appGroupOwners()[group] else {
            throw UsageError("keychain add --group \(group) needs --team TEAM: keychain items belong to a team, "
                             + "and no team owns an App Group \"\(group)\" on this device")
        }
        return try device.keychainAccess(team: team, groups: [group])
    }

    private static func add(_ parsed: ParsedArguments, filter: KeychainAttributes, device: SimulatedDevice) throws -> Int32 {
        guard let secret = parsed.value("secret") else { throw UsageError("keychain add needs --secret TEXT") }
        var attributes = filter
        attributes.label = parsed.value("label")
        let access: KeychainAccess
        switch (parsed.value("group"), parsed.value("app")) {
        case (let group?, nil):
            access = try groupAccess(group, team: parsed.value("team"), device: device)
        case (nil, let reference?):
            let app = try StateCommands.loadApp(reference, appsDirectory: parsed.value("apps"))
            access = try device.keychainAccess(team: app.team, groups: app.keychainAccessGroups)
        default:
            throw UsageError("keychain add needs either --group GROUP or --app APP")
        }
        let params = KeychainAddParams(itemClass: KeychainStatus.genericPasswordClass, attributes: attributes,
                                       data: Data(secret.utf8), returning: KeychainReturn(attributes: true))
        let result = try device.changeKeychain(for: access) { $0.add(params, access: access) }
        guard result.status == KeychainStatus.success, let added = result.items.first?.attributes else {
            let reason = result.status == KeychainStatus.duplicateItem
                ? "an item with service \"\(attributes.service ?? "")\" and account \"\(attributes.account ?? "")\" is already in that access group"
                : result.message ?? "status \(result.status)"
            throw CommandFailure("keychain add: \(reason)")
        }
        let group = added.accessGroup ?? ""
        if parsed.has("json") {
            printJSON(try JSONOutput.encode(added))
        } else {
            print("added service \"\(added.service ?? "")\" account \"\(added.account ?? "")\" to \(group)")
        }
        return 0
    }
}
