import Foundation

/// Which simulated device a pass lives on.
public enum DeviceKind: String, Sendable, Codable, CaseIterable {
    case iphone
    case watch

    /// The device name extensions see (`PKPass.deviceName`).
    public var deviceName: String {
        switch self {
        case .iphone: return "iPhone"
        case .watch: return "Apple Watch"
        }
    }
}

/// A payment pass in the simulated pass library.
public struct PassRecord: Sendable, Codable, Hashable {
    public var primaryAccountIdentifier: String
    public var primaryAccountNumberSuffix: String
    public var deviceName: String
    public var isRemotePass: Bool
    /// The issuer app's bundle identifier.
    public var issuer: String
    public var dateAdded: Date
    /// The issuer app's team (``AppBundle/team``): only that team's extensions see the pass. Nil
    /// for a pass recorded before teams or added by hand without one: see ``owningTeam``.
    public var team: String?

    public init(primaryAccountIdentifier: String, primaryAccountNumberSuffix: String, device: DeviceKind, issuer: String,
                dateAdded: Date = Date(), team: String? = nil) {
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceName = device.deviceName
        self.isRemotePass = device == .watch
        self.issuer = issuer
        self.dateAdded = dateAdded
        self.team = team.flatMap { $0.isEmpty ? nil : $0 }
    }

    public var device: DeviceKind { isRemotePass ? .watch : .iphone }

    /// The team the pass belongs to: its ``team``, else its issuer's identifier, which is an
    /// unsigned app's team (a pass recorded without a team is never given to a signed team
    /// that merely names its issuer).
    public var owningTeam: String { team ?? issuer }
}
