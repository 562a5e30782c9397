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

    public init(primaryAccountIdentifier: String, primaryAccountNumberSuffix: String, device: DeviceKind, issuer: String,
                dateAdded: Date = Date()) {
        self.primaryAccountIdentifier = primaryAccountIdentifier
        self.primaryAccountNumberSuffix = primaryAccountNumberSuffix
        self.deviceName = device.deviceName
        self.isRemotePass = device == .watch
        self.issuer = issuer
        self.dateAdded = dateAdded
    }

    public var device: DeviceKind { isRemotePass ? .watch : .iphone }
}
