/// Options several commands take with the same meaning, declared once. A command may give one
/// of them help of its own (``OptionSpec/withHelp(_:)``) where its default differs.
enum CommonOptions {
    /// `--state DIR`: the simulated device.
    static let state = OptionSpec.valued("state", "DIR", help: """
        The simulated device's state directory (default $WALLET_HOST_STATE, else \
        $XDG_STATE_HOME/wallet-host, else ~/.local/state/wallet-host).
        """)
    /// `--apps DIR`: where installed issuer apps are.
    static let apps = OptionSpec.valued("apps", "DIR", help: """
        The directory of installed issuer .app bundles (default $WALLET_HOST_APPS, else .build/bundles).
        """)
    /// `--json`: machine output.
    static let json = OptionSpec.flag("json", help: "Print one JSON document instead of the human transcript.")
    /// `--html FILE`: a self-contained page (inline SVG and CSS, nothing fetched).
    static let html = OptionSpec.valued("html", "FILE", help: "Also write a self-contained HTML page of the run (nothing fetched).")
    /// `--device iphone|watch`.
    static let device = OptionSpec.valued("device", "iphone|watch", help: "The iPhone or the paired Apple Watch.")
}

extension CommonOptions {
    /// `--no-daemon`: run in this process even when a daemon serves the state directory.
    static let noDaemon = OptionSpec.flag("no-daemon", help: """
        Run in this process even when a wallet-host daemon serves the state directory.
        """)
    /// `--connect SOCKET`: the daemon to use.
    static let connect = OptionSpec.valued("connect", "SOCKET", help: """
        Use the daemon listening on SOCKET; without it, the daemon serving the state directory \
        (<state>/wallet-host.sock) is used when one answers there, else the command runs in this process.
        """)
    /// Both, for the commands a daemon can serve.
    static let daemon = [noDaemon, connect]
}
