import Wallet
import WalletWire

/// What `wallet.addCard` exchanges with its client beside the transcript: the entries offered
/// (`entries: true`) and the user's choices (`choose: true`).
extension DaemonAPI {
    /// `wallet.entries`'s params: the entries an issuer offered the flow, art included.
    public struct OfferedEntries: Codable, Sendable {
        public var entries: [WirePassEntry]

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(entries: [WirePassEntry]) {
            self.entries = entries
        }
    }

    /// `wallet.chooseIssuer`'s params: the issuers Wallet lists, for the user to pick one.
    public struct IssuerChoice: Codable, Sendable {
        public var issuers: [DiscoveredIssuer]

        /// Creates the value from its members (the daemon, another module, makes it).
        public init(issuers: [DiscoveredIssuer]) {
            self.issuers = issuers
        }
    }

    /// `wallet.chooseIssuer`'s answer: the bundle identifier picked (nil: the flow's default).
    public struct ChosenIssuer: Codable, Sendable {
        public var issuer: String?

        /// Creates the value from its members (a client makes it).
        public init(issuer: String?) {
            self.issuer = issuer
        }
    }

    /// `wallet.chooseEntries`'s answer: `["all"]` or the entry identifiers picked (nil: all).
    public struct ChosenEntries: Codable, Sendable {
        public var select: [String]?

        /// Creates the value from its members (a client makes it).
        public init(select: [String]?) {
            self.select = select
        }
    }
}
