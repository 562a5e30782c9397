import Foundation

/// Device settings persisted in `device.json`.
public struct DeviceSettings: Sendable, Codable, Hashable {
    public var watchPaired: Bool
    /// Containing apps (bundle ids) that have been opened at least once.
    public var launchedApps: [String]

    public init(watchPaired: Bool = true, launchedApps: [String] = []) {
        self.watchPaired = watchPaired
        self.launchedApps = launchedApps
    }
}

/// The simulated iPhone with its paired Apple Watch: pass library and settings in a state directory.
public struct SimulatedDevice: Sendable {
    public let state: StateDirectory

    public init(state: StateDirectory) {
        self.state = state
    }

    /// Reads every state file once, so that a command fails before it starts work when one
    /// exists but cannot be read.
    /// - Throws: ``StateError`` naming the first unreadable file.
    public func checkStateReadable() throws {
        _ = try passes()
        _ = try settings()
        _ = try keychainItems()
    }

    /// Every pass on both devices.
    public func passes() throws -> [PassRecord] {
        try StateFileCache.shared.value(at: state.passesURL) {
            try state.read([PassRecord].self, from: state.passesURL, empty: [])
        }
    }

    /// Adds a pass (replacing one with the same account id on the same device).
    public func addPass(_ pass: PassRecord) throws {
        try state.update([PassRecord].self, in: state.passesURL, empty: []) { passes in
            passes.removeAll { $0.primaryAccountIdentifier == pass.primaryAccountIdentifier && $0.isRemotePass == pass.isRemotePass }
            passes.append(pass)
        }
    }

    /// Removes passes matching the account id (on `device`, or on both when nil); returns how many.
    @discardableResult
    public func removePass(primaryAccountIdentifier: String, device: DeviceKind?) throws -> Int {
        var removed = 0
        try state.update([PassRecord].self, in: state.passesURL, empty: []) { passes in
            let before = passes.count
            passes.removeAll { $0.primaryAccountIdentifier == primaryAccountIdentifier && (device == nil || $0.device == device) }
            removed = before - passes.count
        }
        return removed
    }

    /// Removes every pass on `device`, or on both devices when nil.
    public func resetPasses(device: DeviceKind?) throws {
        try state.update([PassRecord].self, in: state.passesURL, empty: []) { passes in
            passes.removeAll { device == nil || $0.device == device }
        }
    }

    public func settings() throws -> DeviceSettings {
        try StateFileCache.shared.value(at: state.deviceURL) {
            try state.read(DeviceSettings.self, from: state.deviceURL, empty: DeviceSettings())
        }
    }

    public func updateSettings(_ change: (inout DeviceSettings) throws -> Void) throws {
        try state.update(DeviceSettings.self, in: state.deviceURL, empty: DeviceSettings(), change)
    }
}
