import WalletWire

/// What `wallet-host --version` prints.
enum HostVersion {
    /// The host's release, which the extension runtime of the same build reports in `initialize`.
    static let release = "2.0.0"

    /// `wallet-host 2.0.0 (extension protocol 1)`.
    static var line: String {
        "wallet-host \(release) (extension protocol \(WireProtocol.version))"
    }
}
