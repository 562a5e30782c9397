import Foundation
import WalletWire

/// One issuer as Wallet's discovery saw it.
public struct DiscoveredIssuer: Sendable, Codable {
    public var bundleIdentifier: String
    public var name: String
    /// Whether Wallet would list it under "From Apps on Your iPhone" for the chosen device.
    public var listed: Bool
    /// Why it is not listed (nil when listed).
    public var reason: String?
    public var status: StatusResult?
    public var milliseconds: Double?
}

/// A card the flow tried to add.
public struct CardOutcome: Sendable, Codable {
    public var identifier: String
    public var title: String
    public var added: Bool
    /// Why it was not added.
    public var error: String?
    public var milliseconds: Double?
    /// What the host made of the request's encrypted payload (nil when the request was not
    /// checked that far: no request, or one of the wrong shape).
    public var verification: PassDataVerification?
}

/// One timed step of the flow, in order.
public struct FlowStep: Sendable, Codable {
    public var step: String
    public var ok: Bool
    public var milliseconds: Double?
    public var detail: String
}

/// A screen the UI extension showed (a `ui.prompt`: an alert or the visible screen) and the
/// action the user chose, nil when the user agent could not answer.
public struct FlowScreen: Sendable, Codable, Equatable {
    public var title: String
    public var message: String?
    public var fields: [UIPromptParams.Field]
    public var actions: [String]
    public var chosen: String?

    public init(_ prompt: UIPromptParams, chosen: String?) {
        title = prompt.title
        message = prompt.message
        fields = prompt.fields
        actions = prompt.actions
        self.chosen = chosen
    }
}

/// Everything the add-card flow did and concluded; `--json` prints it.
public struct FlowReport: Sendable, Codable {
    public var device: DeviceKind
    public var discovery: [DiscoveredIssuer] = []
    public var issuer: String?
    /// `authorized`, `canceled`, or nil when not required.
    public var authorization: String?
    public var entries: [String] = []
    /// Problems with the extension's entries or requests, as `entry: field: problem`.
    public var findings: [String] = []
    public var cards: [CardOutcome] = []
    public var steps: [FlowStep] = []
    /// Why the flow stopped short, when it did.
    public var failure: String?
    /// Each screen (form) the UI extension showed the user, with the action chosen; set by
    /// `add-card` from its user agent, nil when there was none.
    public var screens: [FlowScreen]?

    public init(device: DeviceKind) {
        self.device = device
    }

    /// True only when every selected card was added.
    public var succeeded: Bool { failure == nil && !cards.isEmpty && cards.allSatisfy(\.added) }
}
